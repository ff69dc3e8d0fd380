# PyPTO's printed IR (before ExpandMixedKernel) of tests/golden/pypto/src/two_stage.py, from dump_ir.py.
# RUN: check --schedules 20
# CHECK: PASS: no finding in any explored schedule
# pypto.program: TwoStage
import pypto.language as pl

@pl.program
class TwoStage:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 32], pl.FP32], mid__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        a__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(b__ssa_v0, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        s__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(a__tile, b__tile)
        s__tile_Left: pl.Tile[[32, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(s__tile, target_memory=pl.Mem.Left)
        b__tile_Right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(b__tile, target_memory=pl.Mem.Right)
        p__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s__tile_Left, b__tile_Right)
        mid__tile: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(p__tile, [0, 0], mid__ssa_v0)
        return mid__ssa_v0
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_1(mid__ssa_v1: pl.Tensor[[32, 32], pl.FP32], a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], result__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        mid__ssa_v1_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(mid__ssa_v1, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        a__ssa_v0_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        mid__ssa_v1_mat_Left: pl.Tile[[32, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(mid__ssa_v1_mat, target_memory=pl.Mem.Left)
        a__ssa_v0_mat_Right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(a__ssa_v0_mat, target_memory=pl.Mem.Right)
        q__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(mid__ssa_v1_mat_Left, a__ssa_v0_mat_Right)
        q__tile_Vec: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.move(q__tile, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
        r__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.mul(q__tile_Vec, q__tile_Vec)
        result__tile: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(r__tile, [0, 0], result__ssa_v0)
        return result__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 32], pl.FP32], mid__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]], result__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        mid__ssa_v1: pl.Tensor[[32, 32], pl.FP32] = self.main_incore_0(a__ssa_v0, b__ssa_v0, mid__ssa_v0)
        result__ssa_v1: pl.Tensor[[32, 32], pl.FP32] = self.main_incore_1(mid__ssa_v1, a__ssa_v0, result__ssa_v0)
        return result__ssa_v1
