# A loop's vector side stores into the carried GM tensor under a name the body binds (sc2); the cube loads
# sc2 after the loop. The AIC lane's copy sc2 = sc still needs the carried sc: a V2C RAW race under --v2c off,
# ordered by --v2c fence (found by review of strip_dead_carried, which dropped the carry).
import pypto.language as pl

M = 16
K = 64
N = 64
B = 3


@pl.program
class AfterLoopName:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        for i, (sc,) in pl.range(B, init_values=(scratch,)):
            xb = pl.load(x, [0, i * K], [M, K])
            t = pl.exp(xb)
            sc2 = pl.store(t, [0, 0], sc)
            r1 = pl.yield_(sc2)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(sc2, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
