// What a verdict proves (SPEC 6): the happens-before graph of tpush/tpop rings, counting flags and barriers
// does not depend on timing as long as control flow and GM addresses do not depend on data a race could
// change. This static analysis looks for scalars derived from tile or tensor data and reports every place
// where one steers control flow (a branch condition, loop bounds) or an address (offsets, shapes, valid
// regions, event ids, split codes). When it finds none, a clean verdict holds for every schedule.
#pragma once

#include <string>
#include <vector>

#include "frontend/ir/ir.h"

namespace cvsim::passes {

struct TimingScope {
    bool data_independent = true;      // no data-derived scalar reaches control flow or an address
    std::vector<std::string> reasons;  // "k.py:12: branch condition depends on 'v' (from tile data)"
};

// Analyses every function of `p` (the program the lanes run).
TimingScope analyse_timing_scope(const ir::Program& p);

// Is an op's scalar result derived from tile/tensor data (and not only from shapes or indices)?
bool op_scalar_result_reads_data(const ir::Expr& call);

}  // namespace cvsim::passes
