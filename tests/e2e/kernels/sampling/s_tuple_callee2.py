# The branch scalar q comes from an untyped (Opaque) helper returning a tuple; the race behind it shows for
# n >= 1 (--v2c off). The helper is inlined like a typed one (found by review: the lane ran the call as a
# no-op and the verdict was only E-UNCHECKED).
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class P:
    @pl.function
    def helper(self, a: pl.Scalar[pl.INT32]) -> tuple[pl.Scalar[pl.INT32], pl.Scalar[pl.INT32]]:
        b = a + 1
        c = a * 2
        return b, c

    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        p0, q = self.helper(n)
        if q > 0:
            xb = pl.load(x, [0, 0], [M, K])
            t = pl.add(xb, xb)
            scratch = pl.store(t, [0, 0], scratch)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
