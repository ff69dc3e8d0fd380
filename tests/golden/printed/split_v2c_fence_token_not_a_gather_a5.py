# The a5 twin of split_v2c_fence_token_not_a_gather.py (UP_DOWN split, PyPTO printed for a5): the fence
# policy's token (split 0, pushed by both lanes, only freed by the cube) is no W-NONUNIFORM-GATHER.
# RUN: check --target a5 --v2c fence --schedules 20 --jobs 1
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: NONUNIFORM
# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(
        x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], scratch__ssa_v0: pl.InOut[pl.Tensor[[64, 64], pl.FP16]], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        x__tile: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0 + subblock_idx * 32, 0], [32, 64], [32, 64], target_memory=pl.Mem.Vec)
        t__tile: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(x__tile, x__tile)
        scratch__tile: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(t__tile, [0 + subblock_idx * 32, 0], scratch__ssa_v0)
        scratch__tile_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch__tile, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w__ssa_v0_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        scratch__tile_mat_Left: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(scratch__tile_mat, target_memory=pl.Mem.Left)
        w__ssa_v0_mat_Right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w__ssa_v0_mat, target_memory=pl.Mem.Right)
        acc__tile: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(scratch__tile_mat_Left, w__ssa_v0_mat_Right)
        acc__tile_Vec: pl.Tile[[32, 64], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(acc__tile, split=1)
        r__tile: pl.Tile[[32, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(acc__tile_Vec, 1.0)
        out__tile: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(r__tile, [0 + subblock_idx * 32, 0], out__ssa_v0)
        return out__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(
        self,
        x__ssa_v0: pl.Tensor[[64, 64], pl.FP16],
        w__ssa_v0: pl.Tensor[[64, 64], pl.FP16],
        scratch__ssa_v0: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = self.main_incore_0(x__ssa_v0, scratch__ssa_v0, w__ssa_v0, out__ssa_v0)
        return out__ssa_v1
