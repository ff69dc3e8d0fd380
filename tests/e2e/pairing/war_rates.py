# The store moves down one tile per iteration, the load stays on tile 0: iteration 0's store feeds the
# load (RAW, fenced), but no later store overwrites what an earlier load read, so no WAR ordering.
import pypto.language as pl


@pl.program
class WarRates:
    @pl.function(type=pl.FunctionType.InCore)
    def wr(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[48, 64], pl.FP16]], out: pl.Out[pl.Tensor[[48, 64], pl.FP32]]) -> pl.Tensor[[48, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            t = pl.load(a, [0, 0], [16, 64])
            u = pl.adds(t, i)
            scratch = pl.store(u, [i * 16, 0], scratch)
            g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [i * 16, 0], out)
        return out
