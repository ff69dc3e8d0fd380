// Branch results of a split lane, the way upstream's ExpandMixedKernel finalises each lane
// (FixupDanglingYieldValues then StripDanglingIfReturnVars, loop_state_repair.cpp), for GM-tensor results only.
#pragma once

#include <map>
#include <set>

#include "frontend/ir/ir.h"

namespace cvsim::passes {

// In the lane function F (just split, dead code removed), an `if` result of GM-tensor type whose yield, in
// either arm, names a variable upstream does not count as defined there is dropped from the `if` (result,
// both arms' yield values), and its uses are rewritten to the tensor parameter it is a version of; inside a
// loop a dangling yield value is first replaced by the loop-carried value the other arm yields (when that is
// a version of the same tensor). "Defined" follows upstream: earlier siblings' bindings at every enclosing
// level, enclosing loops' variables and carried values, and the arm's own top-level bindings; not the
// function's parameters, and not COPY_DEFS (cvsim's `v = t` copies standing for the other lane's store, a
// statement upstream's lane does not have). Only results with one parameter as origin are touched, so the
// rewrite never changes which GM tensor an access names. Returns true when F changed.
// ORIGINS: each GM-tensor variable of F -> the tensor parameter it is a version of (gm_origins() of the
// function F was split from, mapped onto F's variables); a version F reads but never binds (the other lane's
// loop or branch produced it) is rewritten to its parameter too (upstream's RemapDanglingGmRefsToParam).
using GmOrigins = std::map<const ir::Var*, ir::VarPtr>;
bool strip_dangling_branch_results(ir::Function& f, const std::set<const ir::Var*>& copy_defs,
                                   const GmOrigins& origins);

// The tensor parameter each GM-tensor version of F derives from: a copy takes its source's, a store's (or
// scatter's) result its destination's, a carried value its init's when the body yields a version of the
// same tensor back, a branch result the one both arms yield.
GmOrigins gm_origins(const ir::Function& f);

}  // namespace cvsim::passes
