# Pipe setup when tiles cross both ways: each lane reserves the ring it consumes (AIV: C2V, AIC: V2C) and
# imports the one it produces into, both initialise with dir_mask=3, slot_size = the largest crossing tile
# (the FP32 [16, 64] scores, 4096 bytes, not the FP16 [16, 64] tile, 2048) and slot_num from the attr (4).
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class BothWays:
    @pl.function(type=pl.FunctionType.InCore, attrs={"slot_num": 4})
    def both(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        m = pl.move(u, target_memory=pl.MemorySpace.Mat)
        l = pl.move(m, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        e = pl.exp(zv)
        out = pl.store(e, [0, 0], out)
        return out
# The V2C buffer's statement comes first, as upstream's pipe setup orders them.
# CHECK:     def both_aic(
# CHECK:         v2c_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='both_v2c_slot_buffer', size=16384, base=pl.AUTO)
# CHECK-NEXT:         c2v_buf: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='both_c2v_slot_buffer', peer_func='both_aiv')
# CHECK-NEXT:         pl.system.aic_initialize_pipe(c2v_buf, v2c_buf, dir_mask=3, slot_size=4096, slot_num=4)
# CHECK-NEXT:         m: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK:         pl.tile.tpush_to_aiv(z, split=0)
# CHECK:     def both_aiv(
# CHECK:         v2c_buf: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='both_v2c_slot_buffer', peer_func='both_aic')
# CHECK-NEXT:         c2v_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='both_c2v_slot_buffer', size=16384, base=pl.AUTO)
# CHECK-NEXT:         pl.system.aiv_initialize_pipe(c2v_buf, v2c_buf, dir_mask=3, slot_size=4096, slot_num=4)
# CHECK:         pl.tile.tpush_to_aic(u, split=0)
# CHECK-NEXT:         zv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
