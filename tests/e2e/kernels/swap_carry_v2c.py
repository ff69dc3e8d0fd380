# Two GM scratches carried by a loop and swapped every iteration (ping-pong): no carry is a version of one
# parameter, so the AIC lane keeps the loop. The vector stores into the first carry; after 2 iterations the
# first result is s1, which the vector wrote in iteration 0, and the cube loads it: a V2C RAW under --v2c off
# (found by review: a wrong E-UNSUPPORTED), ordered by fence.
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class SwapCarry:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        s1: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        s2: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        for i, (a, b) in pl.range(2, init_values=(s1, s2)):
            xb = pl.load(x, [0, 0], [M, K])
            t = pl.add(xb, xb)
            a2 = pl.store(t, [0, 0], a)
            a3, b3 = pl.yield_(b, a2)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(a3, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
