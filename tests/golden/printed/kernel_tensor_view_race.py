# Accesses through a pl.tensor.view are accesses of the viewed tensor: the vector lane stores into the
# weight's second matrix ([1, 0:16, 0:64] of w) while the cube loads rows 64..127 of the [128, 64] view of
# w, the same bytes, with nothing ordering them. check must report the race (a view checked in its own
# coordinates, or as another tensor, would make this clean).
# RUN: check --v2c off --schedules 20
# EXIT: 1
# CHECK: error[E-RACE-RAW]
# pypto.program: ViewRace
import pypto.language as pl


@pl.program
class ViewRace:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_aic(x: pl.Tensor[[16, 64], pl.BF16], w: pl.Tensor[[2, 16, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        w2: pl.Tensor[[32, 64], pl.BF16] = pl.tensor.view(w, [32, 64])
        x_mat: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w2, [16, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        w_t: pl.Tile[[64, 16], pl.BF16, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(w_mat)
        w_right: pl.Tile[[64, 16], pl.BF16, pl.Mem.Right] = pl.tile.move(w_t, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(z, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fill_aiv(x: pl.Tensor[[16, 64], pl.BF16], w: pl.Tensor[[2, 16, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.full([16, 64], dtype=pl.BF16, value=1.0)
        w_1: pl.Tensor[[2, 16, 64], pl.BF16] = pl.tile.store(t, [1, 0, 0], w)

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mm(x: pl.Tensor[[16, 64], pl.BF16], w: pl.Tensor[[2, 16, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.mm_aic(x, w, out)
        self.fill_aiv(x, w, out)
        return out
