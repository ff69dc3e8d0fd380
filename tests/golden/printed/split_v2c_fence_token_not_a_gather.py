# A LEFT_RIGHT-split mixed kernel whose vector store feeds the cube's load through GM (PyPTO's printed program
# before ExpandMixedKernel, from a kernel written for cvsim: `with pl.at(..., optimizations=[pl.split(
# pl.SplitMode.LEFT_RIGHT)])`, t = x + x; scratch = assemble(scratch, t); matmul(scratch, w) + 1). Under
# `--v2c fence` both AIV lanes push their own half as the token (split 0) and the cube only frees it: which
# lane's push landed last cannot matter, so no W-NONUNIFORM-GATHER (it was reported, exit 1, on every split
# kernel the fence policy ordered).
# RUN: check --v2c fence --schedules 20 --jobs 1
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
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        x__tile: pl.Tile[[64, 32], pl.FP16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0 + subblock_idx * 32], [64, 32], [64, 32], target_memory=pl.Mem.Vec)
        t__tile: pl.Tile[[64, 32], pl.FP16, pl.Mem.Vec] = pl.tile.add(x__tile, x__tile)
        scratch__tile: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(t__tile, [0, 0 + subblock_idx * 32], scratch__ssa_v0)
        scratch__tile_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch__tile, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w__ssa_v0_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        scratch__tile_mat_Left: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(scratch__tile_mat, target_memory=pl.Mem.Left)
        w__ssa_v0_mat_Right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w__ssa_v0_mat, target_memory=pl.Mem.Right)
        acc__tile: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(scratch__tile_mat_Left, w__ssa_v0_mat_Right)
        acc__tile_Vec: pl.Tile[[64, 32], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(acc__tile, split=2)
        r__tile: pl.Tile[[64, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(acc__tile_Vec, 1.0)
        out__tile: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(r__tile, [0, 0 + subblock_idx * 32], out__ssa_v0)
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
