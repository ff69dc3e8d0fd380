# n reaches the loop bound only through a tile: pl.full(value=n) then pl.tile.read (found by review: n was
# left at 0, the loop made no trip and check passed; --v2c off races for n >= 1).
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class Launder:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        f = pl.tile.full([8, 8], dtype=pl.INT32, value=n)
        m = pl.tile.read(f, [0, 0])
        for i in pl.range(m):
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
