# A hand-written V2C order with flag id 12: valid on both targets (a2a3 has 16 flag counters per
# cluster, a5 32); with chip.flag_counters lowered below 13 the id names no counter (E-CAPACITY).
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class HandFlags:
    @pl.function(type=pl.FunctionType.InCore)
    def hand_flags(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [M, K])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        pl.system.fence()
        pl.system.sync_set(12, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(12, pipe=pl.PipeType.MTE2, core_type="aic")
        g = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
