# Windows that move at different rates never meet within the loop's range (store rows 0 and 32, load
# rows 48 and 64): no dependency, nothing to order, nothing to reject.
import pypto.language as pl


@pl.program
class LoopBounds:
    @pl.function(type=pl.FunctionType.InCore)
    def lb(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[80, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            t = pl.load(a, [0, 0], [16, 64])
            u = pl.adds(t, i)
            scratch = pl.store(u, [i * 32, 0], scratch)
            g = pl.load(scratch, [i * 16 + 48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [i * 16, 0], out)
        return out
