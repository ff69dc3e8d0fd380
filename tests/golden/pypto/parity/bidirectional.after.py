# pypto.program: Bidirectional
import pypto.language as pl


@pl.program
class Bidirectional:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def round_trip_aic(x__ssa_v0: pl.Tensor[[16, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        round_trip_v2c_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="round_trip_v2c_slot_buffer", size=8192, base=-1)
        round_trip_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="round_trip_c2v_slot_buffer", peer_func="round_trip_aiv")
        pl.system.aic_initialize_pipe(round_trip_c2v_slot_buffer_import, round_trip_v2c_slot_buffer, dir_mask=3, slot_size=4096, slot_num=2)
        xs_mat__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        xs_left__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(xs_mat__ssa_v0, target_memory=pl.Mem.Left)
        pl.system.tfree_to_aiv(xs_mat__ssa_v0)
        w_mat__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right__ssa_v0: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w_mat__ssa_v0, target_memory=pl.Mem.Right)
        z__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xs_left__ssa_v0, w_right__ssa_v0)
        pl.tile.tpush_to_aiv(z__ssa_v0, split=0)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def round_trip_aiv(x__ssa_v0: pl.Tensor[[16, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        round_trip_v2c_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="round_trip_v2c_slot_buffer", peer_func="round_trip_aic")
        round_trip_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="round_trip_c2v_slot_buffer", size=8192, base=-1)
        pl.system.aiv_initialize_pipe(round_trip_c2v_slot_buffer, round_trip_v2c_slot_buffer_import, dir_mask=3, slot_size=4096, slot_num=2)
        x_vec__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        xs__ssa_v0: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.muls(x_vec__ssa_v0, 0.5)
        pl.tile.tpush_to_aic(xs__ssa_v0, split=0)
        z_vec__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        r__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.relu(z_vec__ssa_v0)
        pl.system.tfree_to_aic(z_vec__ssa_v0)
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(r__ssa_v0, [0, 0], out__ssa_v0)
        return out__ssa_v1

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def round_trip(x__ssa_v0: pl.Tensor[[16, 64], pl.BF16], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        self.round_trip_aic(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        self.round_trip_aiv(x__ssa_v0, w__ssa_v0, out__ssa_v0)
        return out__ssa_v0
