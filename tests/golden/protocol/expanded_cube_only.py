# cvsim's own expansion of a cube-only kernel (l2_rows_narrow.py): one AIC function and nothing that launches it.
# It is the entry (it was E-ENTRY; hunt10).
# RUN: check --schedules 5
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class RowsNarrow:
    @pl.function(type=pl.FunctionType.AIC)
    def rows_narrow(self, x: pl.Tensor[[16, 512], pl.FP16], w: pl.Tensor[[512, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat: pl.Tile[[16, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 512], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 512], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[512, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [512, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[512, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
        return out
