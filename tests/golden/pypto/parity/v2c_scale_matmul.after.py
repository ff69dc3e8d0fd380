# pypto.program: V2cScaleMatmul
import pypto.language as pl


@pl.program
class V2cScaleMatmul:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def scale_mm_aic(x__ssa_v0: pl.Tensor[[16, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        scale_mm_v2c_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="scale_mm_v2c_slot_buffer", size=4096, base=-1)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), scale_mm_v2c_slot_buffer, dir_mask=2, slot_size=2048, slot_num=2)
        xs_mat__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        xs_left__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(xs_mat__ssa_v0, target_memory=pl.Mem.Left)
        pl.system.tfree_to_aiv(xs_mat__ssa_v0)
        w_mat__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w_mat__ssa_v0, target_memory=pl.Mem.Right)
        z__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xs_left__ssa_v0, w_right__ssa_v0)
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z__ssa_v0, [0, 0], out__ssa_v0)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def scale_mm_aiv(x__ssa_v0: pl.Tensor[[16, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        scale_mm_v2c_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="scale_mm_v2c_slot_buffer", peer_func="scale_mm_aic")
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), scale_mm_v2c_slot_buffer_import, dir_mask=2, slot_size=2048, slot_num=2)
        x_vec__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        xs__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.muls(x_vec__ssa_v0, 0.5)
        pl.tile.tpush_to_aic(xs__ssa_v0, split=0)
        return out__ssa_v0

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def scale_mm(x__ssa_v0: pl.Tensor[[16, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        self.scale_mm_aic(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        self.scale_mm_aiv(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        return out__ssa_v0
