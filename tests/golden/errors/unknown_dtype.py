# a dtype that does not exist.
# ERROR: E-TYPE 13:32 FP12
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(
        self,
        a: pl.Tensor[[16, 32], pl.FP12],  # <-- here
        b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
