# lc_raw.py in a function split UP_DOWN (both AIV lanes store their half).
import pypto.language as pl


@pl.program
class LoopCarried:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def lc(self, a: pl.Tensor[[32, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]], out: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            g = pl.load(scratch, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [i * 32, 0], out)
            t = pl.load(a, [0, 0], [32, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [0, 0], scratch)
        return out
