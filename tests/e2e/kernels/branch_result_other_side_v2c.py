# A loop carries a GM scratch; a branch in it holds vector statements and the scalar arithmetic they need
# (SHARED statements the AIC lane copies, then finds dead). The AIC lane therefore drops the whole branch, as
# upstream's lane never has it, and the branch's result names the carried parameter; the cube reads the
# scratch after the loop. The V2C RAW race must survive (--v2c off) and fence must order it.
import pypto.language as pl

M = 16
K = 64
N = 64
B = 3


@pl.program
class BranchResultOtherSideV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        flag: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        for i, (sc,) in pl.range(B, init_values=(scratch,)):
            if flag > i:
                col = i * K
                xb = pl.load(x, [0, col], [M, K])
                t = pl.exp(xb)
                sc2 = pl.store(t, [0, 0], sc)
                sc3 = pl.yield_(sc2)
            else:
                sc3 = pl.yield_(sc)
            sc4 = pl.yield_(sc3)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(sc4, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
