# n reaches a branch only through GM: pl.tensor.write(cell, n) then pl.tensor.read(cell). Under it a cube
# store, then a vector pl.tensor.read of the same element, which --c2v upstream leaves unfenced. The control
# analysis follows n through the GM write (found by review: n was left at 0 and check passed).
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class LaunderC2V:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        cell: pl.InOut[pl.Tensor[[8], pl.INT32]],
        scratch: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        pl.tensor.write(cell, [0], n)
        m = pl.tensor.read(cell, [0])
        x_mat = pl.load(x, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, w_right)
        if m > 0:
            scratch = pl.store(z, [0, 0], scratch)
        v = pl.tensor.read(scratch, [0, 0])
        o = pl.tile.full([M, N], dtype=pl.FP32, value=v)
        out = pl.store(o, [0, 0], out)
        return out
