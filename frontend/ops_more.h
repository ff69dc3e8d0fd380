// The last PyPTO tile ops of issue 12 (frontend/ops_more.cpp): partial-region binaries (part_add/mul/max/min,
// pto-isa TPARTADD...), reinterpret_view, gatherb (TGATHERB), scatter_update and get_block_num — registry rows,
// PyPTO's type rules and numerics shared by the reference interpreter and the simulator.
#pragma once

#include <optional>
#include <vector>

#include "frontend/ops.h"

namespace cvsim::ir {

// Appends the ops' OpDefs to the registry (called by build_ops).
void add_more_ops(std::vector<OpDef>& ops);
// Type rule of one of these calls; nullopt for any other op.
std::optional<Type> more_op_type(const Expr& call);
// pl.tile.mgather / pl.tile.mscatter (frontend/ops_gm_index.cpp): registry rows and type rules.
void add_gm_index_ops(std::vector<OpDef>& ops);
std::optional<Type> gm_index_type(const Expr& call);
// 4-bit dtypes (frontend/ops_sub_byte.cpp): E-UNSUPPORTED for an op that has no 4-bit datapath in cvsim, E-TYPE
// for a 4-bit window or tile row that splits a byte. Called by infer_call_type on every call.
void check_sub_byte_call(const Expr& call, const Type& result);

}  // namespace cvsim::ir
