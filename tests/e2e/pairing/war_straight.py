# Straight-line WAR: the cube reads the scratch, then the vector overwrites it (no loop).
import pypto.language as pl


@pl.program
class WarStraight:
    @pl.function(type=pl.FunctionType.InCore)
    def ws(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        return out
