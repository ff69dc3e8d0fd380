# Three V2C token fences fill a 2-slot ring while a fourth dependency (a store in both arms of a branch)
# falls back to a barrier placed before the cube's first token pop: the pops must go before the barrier
# (SPEC 5.7, deadlock-free placements), or the vector blocks on the third push and never reaches it.
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class TokensBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def tokens_barrier(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        flag: pl.Scalar[pl.INT32],
        s0: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        s1: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        s2: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        s3: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[4 * M, N], pl.FP32]],
    ) -> pl.Tensor[[4 * M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [M, K])
        u = pl.add(t, t)
        v = pl.mul(t, t)
        s0 = pl.store(u, [0, 0], s0)
        s1 = pl.store(v, [0, 0], s1)
        s2 = pl.store(t, [0, 0], s2)
        if flag == 0:
            s3 = pl.store(u, [0, 0], s3)
        else:
            s3 = pl.store(v, [0, 0], s3)
        g3 = pl.load(s3, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        l3 = pl.move(g3, target_memory=pl.MemorySpace.Left)
        z3 = pl.matmul(l3, w_right)
        out = pl.store(z3, [3 * M, 0], out)
        g0 = pl.load(s0, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        l0 = pl.move(g0, target_memory=pl.MemorySpace.Left)
        z0 = pl.matmul(l0, w_right)
        out = pl.store(z0, [0, 0], out)
        g1 = pl.load(s1, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        l1 = pl.move(g1, target_memory=pl.MemorySpace.Left)
        z1 = pl.matmul(l1, w_right)
        out = pl.store(z1, [M, 0], out)
        g2 = pl.load(s2, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        l2 = pl.move(g2, target_memory=pl.MemorySpace.Left)
        z2 = pl.matmul(l2, w_right)
        out = pl.store(z2, [2 * M, 0], out)
        return out
