# A loop counting down (pl.range(3, -1, -1)): iteration i loads the rows iteration i + 1 stored, which ran
# first. Under --v2c off that is a loop-carried RAW; the race was named WAR (iterations ordered by the
# loop variable's value, not by when they run), with the hint for the wrong fix.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[8, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[40, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3, -1, -1):
            t = pl.load(a, [0, 0], [8, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [i * 8, 0], scratch)
            g = pl.load(scratch, [i * 8 + 8, 0], [8, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [i * 8, 0], out)
        return out
