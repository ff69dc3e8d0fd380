# pypto.program: TwoSizes
import pypto.language as pl

N = pl.dynamic("N")

@pl.program
class TwoSizes:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def mm_exp(x__ssa_v0: pl.Tensor[[N, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[N, 64], pl.FP32]]) -> pl.Tensor[[N, 64], pl.FP32]:
        a__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        b__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        a_l0__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(a__ssa_v0, target_memory=pl.Mem.Left)
        b_l0__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(b__ssa_v0, target_memory=pl.Mem.Right)
        c__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_l0__ssa_v0, b_l0__ssa_v0)
        c__ssa_v0_Vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(c__ssa_v0, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
        e__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(c__ssa_v0_Vec)
        out__ssa_v1: pl.Tensor[[N, 64], pl.FP32] = pl.tile.store(e__ssa_v0, [0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x16__ssa_v0: pl.Tensor[[16, 64], pl.BF16], x32__ssa_v0: pl.Tensor[[32, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], o16__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]], o32__ssa_v0: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        o16__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.mm_exp(x16__ssa_v0, w__ssa_v0, o16__ssa_v0)
        o32__ssa_v1: pl.Tensor[[32, 64], pl.FP32] = self.mm_exp(x32__ssa_v0, w__ssa_v0, o32__ssa_v0)
        return o32__ssa_v1
