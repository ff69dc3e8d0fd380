# init_values with a plain loop target.
# ERROR: E-PARSE 13:13
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        for i in pl.range(2, init_values=(t,)):  # <-- here
            y = pl.yield_(t)
        out = pl.store(t, [0, 0], out)
        return out
