# Already ordered by a sync_set / sync_wait pair the author wrote (the vector sets after its store, the
# cube waits before its load): --v2c fence adds no token and no barrier.
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class Flags:
    @pl.function(type=pl.FunctionType.InCore)
    def flags(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type="aic")
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
# CHECK:     def flags_aic(
# CHECK-NOT: _v2c_token
# CHECK:         pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK-NEXT:         g: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:     def flags_aiv(
# CHECK-NOT: tpush_to_aic
# CHECK:         scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(u, [0, 0], scratch)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK-NEXT:         return out
