# Store and load of row 16i in iteration i: fenced in the iteration, no loop-carried ordering.
import pypto.language as pl


@pl.program
class LoopDisjoint:
    @pl.function(type=pl.FunctionType.InCore)
    def ld(self, a: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[64, 64], pl.FP16]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            t = pl.load(a, [i * 16, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [i * 16, 0], scratch)
            g = pl.load(scratch, [i * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [i * 16, 0], out)
        return out
