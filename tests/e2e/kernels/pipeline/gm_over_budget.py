# A kernel whose GM tensor (4 GiB) is over cvsim's GM bound: E-CAPACITY at the parameter, from expand too.
import pypto.language as pl


@pl.program
class OverBudget:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[32768, 32768], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out
