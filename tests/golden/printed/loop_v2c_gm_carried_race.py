# A loop whose vector stores a GM tensor the cube loads in the same iteration (PyPTO's printed program before
# ExpandMixedKernel, from a kernel written for cvsim: tests/golden/pypto/parity/src/loop_v2c_gm_carried.py). The
# AIC lane carries nothing, as upstream's (its load names the parameter through the store's copy), and the race
# stays: the vector's store of iteration 0 is not ordered before the cube's load.
# RUN: check --v2c off --schedules 20 --jobs 1
# CHECK: FAIL
# CHECK: error[E-RACE-RAW]: RAW on GM scratch__ssa_v0[0:64, 0:64]
# EXIT: 1
# pypto.program: LoopV2cGmCarried
import pypto.language as pl


@pl.program
class LoopV2cGmCarried:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(
        out__ssa_v0: pl.Out[pl.Tensor[[128, 64], pl.FP32]], scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP16]], x__ssa_v0: pl.Tensor[[128, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16]
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        for i__idx_v0, (out__iter_v1, scratch__iter_v1) in pl.range(2, init_values=(out__ssa_v0, scratch__ssa_v0)):
            xi__tile: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [i__idx_v0 * 64, 0], [64, 64], [64, 64], target_memory=pl.Mem.Vec)
            t__tile: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xi__tile, xi__tile)
            scratch__tile: pl.Tensor[[128, 64], pl.FP16] = pl.tile.store(t__tile, [i__idx_v0 * 64, 0], scratch__iter_v1)
            prev__tile: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch__tile, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
            w__ssa_v0_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
            prev__tile_Left: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(prev__tile, target_memory=pl.Mem.Left)
            w__ssa_v0_mat_Right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w__ssa_v0_mat, target_memory=pl.Mem.Right)
            acc__tile: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(prev__tile_Left, w__ssa_v0_mat_Right)
            acc__tile_Vec: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(acc__tile, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
            r__tile: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(acc__tile_Vec, 1.0)
            out__tile: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(r__tile, [i__idx_v0 * 64, 0], out__iter_v1)
            out__rv_v2, scratch__rv_v2 = pl.yield_(out__tile, scratch__tile)
        return out__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(
        self,
        x__ssa_v0: pl.Tensor[[128, 64], pl.FP16],
        w__ssa_v0: pl.Tensor[[64, 64], pl.FP16],
        scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP16]],
        out__ssa_v0: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        out__rv_v2: pl.Tensor[[128, 64], pl.FP32] = self.main_incore_0(out__ssa_v0, scratch__ssa_v0, x__ssa_v0, w__ssa_v0)
        return out__rv_v2
