# The same as tokens_fallback_barrier.py, inside a loop with per-iteration windows.
import pypto.language as pl

B = 3
M = 16
K = 64
N = 64


@pl.program
class TokensBarrierLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def tokens_barrier_loop(
        self,
        a: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        flag: pl.Scalar[pl.INT32],
        s0: pl.Out[pl.Tensor[[M, B * K], pl.FP16]],
        s1: pl.Out[pl.Tensor[[M, B * K], pl.FP16]],
        s2: pl.Out[pl.Tensor[[M, B * K], pl.FP16]],
        s3: pl.Out[pl.Tensor[[M, B * K], pl.FP16]],
        out: pl.Out[pl.Tensor[[4 * M, B * N], pl.FP32]],
    ) -> pl.Tensor[[4 * M, B * N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(B):
            t = pl.load(a, [0, i * K], [M, K])
            u = pl.add(t, t)
            v = pl.mul(t, t)
            s0 = pl.store(u, [0, i * K], s0)
            s1 = pl.store(v, [0, i * K], s1)
            s2 = pl.store(t, [0, i * K], s2)
            if flag == 0:
                s3 = pl.store(u, [0, i * K], s3)
            else:
                s3 = pl.store(v, [0, i * K], s3)
            g3 = pl.load(s3, [0, i * K], [M, K], target_memory=pl.MemorySpace.Mat)
            l3 = pl.move(g3, target_memory=pl.MemorySpace.Left)
            z3 = pl.matmul(l3, w_right)
            out = pl.store(z3, [3 * M, i * N], out)
            g0 = pl.load(s0, [0, i * K], [M, K], target_memory=pl.MemorySpace.Mat)
            l0 = pl.move(g0, target_memory=pl.MemorySpace.Left)
            z0 = pl.matmul(l0, w_right)
            out = pl.store(z0, [0, i * N], out)
            g1 = pl.load(s1, [0, i * K], [M, K], target_memory=pl.MemorySpace.Mat)
            l1 = pl.move(g1, target_memory=pl.MemorySpace.Left)
            z1 = pl.matmul(l1, w_right)
            out = pl.store(z1, [M, i * N], out)
            g2 = pl.load(s2, [0, i * K], [M, K], target_memory=pl.MemorySpace.Mat)
            l2 = pl.move(g2, target_memory=pl.MemorySpace.Left)
            z2 = pl.matmul(l2, w_right)
            out = pl.store(z2, [2 * M, i * N], out)
        return out
