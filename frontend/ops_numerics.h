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
TileData fill(const OpOperands& o);  // variant 0: zeros (create), 1: scalar operand 0 (full)
TileData view(const OpOperands& o);
TileData col_reduce(const OpOperands& o);      // variant: ReduceOp
TileData col_expand(const OpOperands& o);      // variant: RowExpandOp
TileData ternary(const OpOperands& o);         // variant: op1 * 16 + op2 (BinaryOp)
TileData ternary_scalar(const OpOperands& o);  // variant: op1 * 16 + op2, scalar operand 0
TileData prelu(const OpOperands& o);
TileData lrelu(const OpOperands& o);
TileData cmp(const OpOperands& o);      // variant 0 tile-tile, 1 tile-scalar; cmp_type= from the call
TileData sel(const OpOperands& o);      // variant 0 sel(mask, lhs, rhs), 1 sels(mask, src, tmp, scalar)
TileData fillpad(const OpOperands& o);  // pad_value= from the call; the operand's valid region is kept
TileData ci(const OpOperands& o);
TileData tri(const OpOperands& o);
TileData concat(const OpOperands& o);
TileData extract(const OpOperands& o);   // scalar operands 0, 1: the window origin
TileData write(const OpOperands& o);     // ints: indices, scalar operand 0: the value
TileData assemble(const OpOperands& o);  // ints: offset        // variant 0 slice (ints = offsets), 1 reshape, 2
                                         // transpose_view, 3 same

}  // namespace cvsim::ir::numerics
