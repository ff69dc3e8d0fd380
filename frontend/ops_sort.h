// The sort / gather / scatter / index family of the op registry (frontend/ops_sort.cpp): registration, type
// rules and numerics over models/datapath_sort.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/ops.h"

namespace cvsim::ir {

// Appends the family's OpDefs to the registry (called by build_ops).
void add_sort_ops(std::vector<OpDef>& ops);
// Type rule of one of the family's calls (PyPTO's checks plus the ISA's static constraints).
Type sort_op_type(const Expr& call);
// pl.tile.gather_compare_dst's and _cdst's run-time check (either may be the one the expander keeps), shared by the
// reference and the simulator: a src row with more matches than out_cols (the hardware would write past the dst row) ->
// the E-OOB message; nullopt otherwise.
std::optional<std::string> gather_compare_overflow_error(const OpOperands& o);
// A run-time pl.tile.assemble whose source region (its valid part) leaves the target: the message, else nullopt.
std::optional<std::string> assemble_outside_error(const OpOperands& o);
// A run-time pl.tile.write whose index (a scalar, possibly read from data) is outside the tile: the message, else
// nullopt. Was an exception out of the numerics: in the simulator, inside a SystemC process (exit 3).
std::optional<std::string> write_outside_error(const OpOperands& o);

}  // namespace cvsim::ir
