# A K-loop accumulator whose first matmul has a Right operand of valid [64, 4] (so the accumulator's valid region is
# [16, 4]) and whose matmul_acc result and loop result are printed without a TileView (pypto-lib's hc_head
# pattern). pto-isa's TMATMUL_ACC computes the operands' [m, n] into the accumulator and leaves its valid region
# as it was, so the store moves [16, 4]: the lane executor did so, the reference interpreter widened the result to
# the printed full [16, 16] and wrote 12 more columns, and check reported E-UNWRITTEN on a correct kernel.
# RUN: check --schedules 3
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class AccValid:
    @pl.function(type=pl.FunctionType.AIC)
    def lin(x: pl.Tensor[[16, 256], pl.FP32], w: pl.Tensor[[4, 256], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        acc0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 16], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.range(4, init_values=(acc0,)):
            k0: pl.Scalar[pl.INDEX] = kb * 64
            xm: pl.Tile[[16, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(x, [0, k0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            wm: pl.Tile[[16, 64], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[4, 64])] = pl.tile.load(w, [0, k0], [16, 64], [4, 64], target_memory=pl.Mem.Mat)
            wt: pl.Tile[[64, 16], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[64, 4], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(wm)
            xl: pl.Tile[[16, 64], pl.FP32, pl.Mem.Left] = pl.tile.move(xm, target_memory=pl.Mem.Left)
            wr: pl.Tile[[64, 16], pl.FP32, pl.Mem.Right, pl.TileView(valid_shape=[64, 4])] = pl.tile.move(wt, target_memory=pl.Mem.Right)
            if kb == 0:
                a1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[16, 4])] = pl.tile.matmul(xl, wr)
                p: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[16, 4])] = pl.yield_(a1)
            else:
                a2: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc, xl, wr)
                p: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[16, 4])] = pl.yield_(a2)
            r: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.yield_(p)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(r, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Spmd)
    def lin_spmd(self, x: pl.Tensor[[16, 256], pl.FP32], w: pl.Tensor[[4, 256], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.lin(x, w, out)
        return out
