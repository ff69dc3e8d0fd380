# The mixed kernel handwritten_split_v2c.py is the expansion of (same tensor names, so the same seeded
# inputs): their outputs must be identical.
import pypto.language as pl

M = 32
K = 32
N = 32


@pl.program
class HandSplitV2cMixed:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def hs(self, x: pl.Tensor[[M, K], pl.FP16], w: pl.Tensor[[K, N], pl.FP16], out: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
        t = pl.load(x, [0, 0], [M, K])
        t2 = pl.add(t, t)
        lhs = pl.move(t2, target_memory=pl.MemorySpace.Mat)
        lhs_left = pl.move(lhs, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(lhs_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
