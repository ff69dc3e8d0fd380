# pypto.program: LoopV2cGmCarried
import pypto.language as pl


@pl.program
class LoopV2cGmCarried:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def main_incore_0_aic(
        out__ssa_v0: pl.Out[pl.Tensor[[128, 64], pl.FP32]], scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP16]], x__ssa_v0: pl.Tensor[[128, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16]
    ):
        main_incore_0_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="main_incore_0_c2v_slot_buffer", peer_func="main_incore_0_aiv")
        pl.system.aic_initialize_pipe(main_incore_0_c2v_slot_buffer_import, pl.const(0, pl.INT32), dir_mask=1, slot_size=16384, slot_num=2)
        for i__idx_v0 in pl.range(2):
            prev__tile: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
            w__ssa_v0_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
            prev__tile_Left: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(prev__tile, target_memory=pl.Mem.Left)
            w__ssa_v0_mat_Right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w__ssa_v0_mat, target_memory=pl.Mem.Right)
            acc__tile: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(prev__tile_Left, w__ssa_v0_mat_Right)
            pl.tile.tpush_to_aiv(acc__tile, split=0)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def main_incore_0_aiv(
        out__ssa_v0: pl.Out[pl.Tensor[[128, 64], pl.FP32]], scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP16]], x__ssa_v0: pl.Tensor[[128, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16]
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        main_incore_0_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="main_incore_0_c2v_slot_buffer", size=32768, base=-1)
        pl.system.aiv_initialize_pipe(main_incore_0_c2v_slot_buffer, pl.const(0, pl.INT32), dir_mask=1, slot_size=16384, slot_num=2)
        for i__idx_v0, (out__iter_v1, scratch__iter_v1) in pl.range(2, init_values=(out__ssa_v0, scratch__ssa_v0)):
            xi__tile: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [i__idx_v0 * 64, 0], [64, 64], [64, 64], target_memory=pl.Mem.Vec)
            t__tile: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xi__tile, xi__tile)
            scratch__tile: pl.Tensor[[128, 64], pl.FP16] = pl.tile.store(t__tile, [i__idx_v0 * 64, 0], scratch__iter_v1)
            acc__tile_Vec: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
            r__tile: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(acc__tile_Vec, 1.0)
            pl.system.tfree_to_aic(acc__tile_Vec)
            out__tile: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(r__tile, [i__idx_v0 * 64, 0], out__iter_v1)
            out__rv_v2, scratch__rv_v2 = pl.yield_(out__tile, scratch__tile)
        return out__ssa_v0

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def main_incore_0(
        out__ssa_v0: pl.Out[pl.Tensor[[128, 64], pl.FP32]], scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP16]], x__ssa_v0: pl.Tensor[[128, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16]
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        self.main_incore_0_aic(out__ssa_v0, scratch__ssa_v0, x__ssa_v0, w__ssa_v0)
        self.main_incore_0_aiv(out__ssa_v0, scratch__ssa_v0, x__ssa_v0, w__ssa_v0)
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
