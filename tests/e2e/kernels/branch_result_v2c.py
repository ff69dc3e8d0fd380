# The vector side stores into a GM scratch inside an `if` (the branch's result is the stored version, the
# other arm yields the parameter); the cube loads the branch's result after it. On the AIC lane upstream
# strips that result (its yield names a version only the AIV lane defines) and reads the parameter, as cvsim
# now does: the V2C RAW race must survive the rewrite (--v2c off), and fence must order it.
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class BranchResultV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        flag: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        if flag > 0:
            xb = pl.load(x, [0, 0], [M, K])
            t = pl.exp(xb)
            sc2 = pl.store(t, [0, 0], scratch)
            sc3 = pl.yield_(sc2)
        else:
            sc3 = pl.yield_(scratch)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(sc3, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
