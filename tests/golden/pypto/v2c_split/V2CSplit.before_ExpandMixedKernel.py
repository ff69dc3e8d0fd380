# PyPTO's printed IR (before ExpandMixedKernel) of tests/golden/pypto/src/v2c_split.py, from dump_ir.py.
# RUN: expand --v2c off
# CHECK: type=pl.FunctionType.Group
# pypto.program: V2CSplit
import pypto.language as pl


@pl.program
class V2CSplit:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(x__ssa_v0: pl.Tensor[[32, 64], pl.FP32], w__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        x__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0 + subblock_idx * 16, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        y__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.sub(x__tile, x__tile)
        w__ssa_v0_mat: pl.Tile[[64, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 32], [64, 32], target_memory=pl.Mem.Mat)
        y__tile_Left_mat: pl.Tile[[32, 64], pl.FP32, pl.Mem.Mat] = pl.tile.aic_gather(y__tile, split=1)
        y__tile_Left: pl.Tile[[32, 64], pl.FP32, pl.Mem.Left] = pl.tile.move(y__tile_Left_mat, target_memory=pl.Mem.Left)
        w__ssa_v0_mat_Right: pl.Tile[[64, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(w__ssa_v0_mat, target_memory=pl.Mem.Right)
        z__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(y__tile_Left, w__ssa_v0_mat_Right)
        out__tile: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(z__tile, [0, 0], out__ssa_v0)
        return out__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[32, 64], pl.FP32], w__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        out__ssa_v1: pl.Tensor[[32, 32], pl.FP32] = self.main_incore_0(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        return out__ssa_v1
