# Default policy (--v2c fence, --c2v upstream). The cube stores a tile once per i in lo .. hi (scalar
# parameters); after the loop the vector reads the scratch back: a C2V RAW whenever lo < hi (upstream's C2V
# token does not apply to a store nested in a loop the consumer is not in). Sampling both at one value makes
# the loop empty (found by review); the ascending sample (lo=0, hi=1) runs it.
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class CsrOffsetsC2V:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[M, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        lo: pl.Scalar[pl.INDEX],
        hi: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(lo, hi):
            x_mat = pl.load(x, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(x_left, w_right)
            scratch = pl.store(z, [0, 0], scratch)
        s = pl.load(scratch, [0, 0], [M, N])
        e = pl.exp(s)
        out = pl.store(e, [0, 0], out)
        return out
