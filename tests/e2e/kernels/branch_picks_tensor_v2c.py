# A branch picks between two GM tensors: the then-arm stores (vector) into s1 and yields that version, the
# else-arm yields s2. The cube loads the branch result: flag > 0 reads s1 right after the vector wrote it (a
# V2C RAW under --v2c off). The AIC lane must keep the choice (found by review: dropping the vector-side
# branch as upstream does for a single tensor left the lane without it, a wrong E-UNSUPPORTED).
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class BranchDisagree:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        s1: pl.InOut[pl.Tensor[[M, K], pl.FP16]],
        s2: pl.InOut[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        flag: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        if flag > 0:
            xb = pl.load(x, [0, 0], [M, K])
            t = pl.add(xb, xb)
            s1b = pl.store(t, [0, 0], s1)
            r = pl.yield_(s1b)
        else:
            r = pl.yield_(s2)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(r, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
