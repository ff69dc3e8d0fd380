# a dedent to a column that matches no enclosing block.
# ERROR: E-PARSE 13:7
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
      u = pl.add(t, t)  # <-- here
        out = pl.store(t, [0, 0], out)
        return out
