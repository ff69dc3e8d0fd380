# A kernel whose scalar parameters nobody gives (no --input): `row` moves the vector store's window (rows
# row*16 .. row*16+16 of a 32-row scratch: 0 and 1 fit, 2 does not), `scale` is only a numeric operand. The
# vector store and the cube load of the scratch race under --v2c off whenever the branch on `row` runs.
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class SampledScalars:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[2 * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        row: pl.Scalar[pl.INT32],
        scale: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        if row > 0:
            xb = pl.load(x, [0, 0], [M, K])
            t = pl.muls(xb, scale)
            scratch = pl.store(t, [row * M, 0], scratch)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(scratch, [M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
