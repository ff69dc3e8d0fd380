# A hand-written expanded program whose AIC waits for the vector's flag on pipe V, which the AIC does not
# have. It ran as a scalar-unit wait (ordering every later instruction) and was checked clean; it is refused.
import pypto.language as pl


@pl.program
class F:
    @pl.function(type=pl.FunctionType.AIC)
    def f_aic(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        pl.system.sync_wait(2, pipe=pl.PipeType.V)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def f_aiv(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        pl.system.sync_set(2, pipe=pl.PipeType.MTE3)

    @pl.function(type=pl.FunctionType.Group)
    def f(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        self.f_aic(a, w, scratch, out)
        self.f_aiv(a, w, scratch, out)
        return out
