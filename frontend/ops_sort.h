// The sort / gather / scatter / index family of the op registry (frontend/ops_sort.cpp): registration, type
// rules and numerics over models/datapath_sort.
#pragma once

#include <vector>

#include "frontend/ops.h"

namespace cvsim::ir {

// Appends the family's OpDefs to the registry (called by build_ops).
void add_sort_ops(std::vector<OpDef>& ops);
// Type rule of one of the family's calls (PyPTO's checks plus the ISA's static constraints).
Type sort_op_type(const Expr& call);

}  // namespace cvsim::ir
