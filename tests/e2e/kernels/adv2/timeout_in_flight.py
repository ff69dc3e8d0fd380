# a very long loop under --timeout: the wall-time report names each pipe's instruction in flight (round 2)
# V2C inside a loop: each iteration the vector lane squares one block of x and
# writes it to its own region of a GM scratch; the cube lane reads that block
# back in the same iteration and multiplies it by the matching weight block.
# Producer and consumer share the loop body, so a fence per iteration is
# balanced.
import pypto.language as pl

B = 4
M = 16
K = 64
N = 64


@pl.program
class BlockedV2C:
    @pl.function(type=pl.FunctionType.InCore)
    def blocked(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[B * K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, B * K], pl.FP16]],
        out: pl.Out[pl.Tensor[[B * M, N], pl.FP32]],
    ) -> pl.Tensor[[B * M, N], pl.FP32]:
        for i in pl.range(10000000000000):
            xb = pl.load(x, [0, i * K], [M, K])
            sq = pl.mul(xb, xb)
            scratch = pl.store(sq, [0, i * K], scratch)
            s_mat = pl.load(scratch, [0, i * K], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            w_mat = pl.load(w, [i * K, 0], [K, N], target_memory=pl.MemorySpace.Mat)
            w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
            z = pl.matmul(s_left, w_right)
            out = pl.store(z, [i * M, 0], out)
        return out
