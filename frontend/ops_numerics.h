// The numerics families of the op registry (frontend/ops.cpp): one function per family, used by both the
// reference interpreter and the simulator's datapath through OpDef::numerics.
#pragma once

#include "frontend/ops.h"

namespace cvsim::ir::numerics {

TileData move(const OpOperands& o);        // identity (the result has the operand's values)
TileData matmul(const OpOperands& o);      // variant: 1 acc, 2 bias, 4 gemv (padded to the result rows)
TileData binary(const OpOperands& o);      // variant: BinaryOp
TileData scalar(const OpOperands& o);      // variant: BinaryOp, scalar operand 0
TileData unary(const OpOperands& o);       // variant: UnaryOp
TileData cast(const OpOperands& o);        // mode= from the call
TileData reduce(const OpOperands& o);      // variant: ReduceOp
TileData row_expand(const OpOperands& o);  // variant: RowExpandOp
TileData transpose(const OpOperands& o);
TileData fill(const OpOperands& o);        // variant 0: zeros (create), 1: scalar operand 0 (full)
TileData view(const OpOperands& o);        // variant 0 slice (ints = offsets), 1 reshape, 2 transpose_view, 3 same

}  // namespace cvsim::ir::numerics
