# an unknown member of pl.FunctionType.
# ERROR: E-TYPE 10:23 Kernel
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.Kernel)  # <-- here
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
