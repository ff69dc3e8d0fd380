# Default policy (--v2c fence, --c2v upstream). The cube stores a tile once per row of the range
# offs[0] .. offs[1] (control data read from GM); after the loop the vector reads the scratch back. The store
# is nested in the loop and the consumer is not under it, so upstream's C2V token does not apply: a C2V RAW
# whenever offs[0] < offs[1]. A constant fill makes the range empty (found by review); the ascending fill
# (offs = 0, 1, ...) runs it once and the race is reported.
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
        offs: pl.Tensor[[2], pl.INT32],
        scratch: pl.InOut[pl.Tensor[[M, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        lo = pl.tensor.read(offs, [0])
        hi = pl.tensor.read(offs, [1])
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
