// Which scalar parameters of an entry decide what runs: the ones `check` must not leave at a made-up value.
#pragma once

#include <string>
#include <vector>

#include "frontend/ir/ir.h"

namespace cvsim {

// The scalar parameters of F, in parameter order, whose value can change which statements run or which GM
// or tile windows they touch: read (directly, or through scalar assignments, loop carries and branch
// results) by a loop bound, a branch condition, an op argument that is not a numeric operand (`value`
// parameters, e.g. the scalar of pl.tile.adds, are data only), or an argument of a call to a function of P
// (self.f(...)) whose own parameter counts. An Orchestration function's scalar parameters all count (its
// host walk turns them into launches). A tensor parameter counts when a scalar pl.tensor.read takes from its
// data reaches such a use (control data: positions, lengths, block tables). The analysis over-approximates: a
// parameter it names may not matter, one it leaves out cannot.
std::vector<std::string> control_scalar_params(const ir::Program& p, const ir::Function& f);

}  // namespace cvsim
