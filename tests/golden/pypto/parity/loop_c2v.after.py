# pypto.program: LoopC2v
import pypto.language as pl


@pl.program
class LoopC2v:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def rows_aic(x__ssa_v0: pl.Tensor[[64, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        rows_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="rows_c2v_slot_buffer", peer_func="rows_aiv")
        pl.system.aic_initialize_pipe(rows_c2v_slot_buffer_import, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)
        w_mat__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w_mat__ssa_v0, target_memory=pl.Mem.Right)
        for i__idx_v0 in pl.range(4):
            x_mat__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [i__idx_v0 * 16, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            x_left__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(x_mat__ssa_v0, target_memory=pl.Mem.Left)
            z__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left__ssa_v0, w_right__ssa_v0)
            pl.tile.tpush_to_aiv(z__ssa_v0, split=0)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def rows_aiv(x__ssa_v0: pl.Tensor[[64, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        rows_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="rows_c2v_slot_buffer", size=8192, base=-1)
        pl.system.aiv_initialize_pipe(rows_c2v_slot_buffer, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)
        for i__idx_v0, (out__iter_v1,) in pl.range(4, init_values=(out__ssa_v0,)):
            z_vec__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
            e__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(z_vec__ssa_v0)
            pl.system.tfree_to_aic(z_vec__ssa_v0)
            out__ssa_v3: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(e__ssa_v0, [i__idx_v0 * 16, 0], out__iter_v1)
            out__rv_v2: pl.Tensor[[64, 64], pl.FP32] = pl.yield_(out__ssa_v3)
        return out__rv_v2

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def rows(x__ssa_v0: pl.Tensor[[64, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        self.rows_aic(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        self.rows_aiv(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        return out__ssa_v0
