# An orchestration passes its one scratch tensor as two parameters of a mixed kernel: the vector lane stores
# into s1 and the cube lane loads s2, the same GM. The expander pairs accesses by parameter, so fence leaves
# the race in place; cvsim binds both parameters to the one tensor and reports it (it was refused before).
import pypto.language as pl


@pl.program
class AliasTwice:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s1: pl.Out[pl.Tensor[[16, 64], pl.FP16]], s2: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s1 = pl.store(u, [0, 0], s1)
        g = pl.load(s2, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], sc: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r = self.k(a, w, sc, sc, out)
        return r
