# A loop carries a GM scratch; inside it a branch's vector arm stores into the carried version and the other
# arm yields the carried value on; the cube loads the branch's result in the same iteration. On the AIC lane
# the store's version is not defined, so upstream's FixupDanglingYieldValues yields the carried value instead
# (the other arm's carrier), as cvsim now does: the V2C RAW race must survive (--v2c off), fence orders it.
import pypto.language as pl

M = 16
K = 64
N = 64
B = 3


@pl.program
class BranchResultInLoopV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, B * N], pl.FP32]],
        flag: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, B * N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i, (sc, o) in pl.range(B, init_values=(scratch, out)):
            if flag > 0:
                xb = pl.load(x, [0, i * K], [M, K])
                t = pl.exp(xb)
                sc2 = pl.store(t, [0, 0], sc)
                sc3 = pl.yield_(sc2)
            else:
                sc3 = pl.yield_(sc)
            s_mat = pl.load(sc3, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, w_right)
            o2 = pl.store(z, [0, i * N], o)
            sc4, o3 = pl.yield_(sc3, o2)
        return o3
