# a pl.dynamic symbol where a constant dimension is needed.
# ERROR: E-UNSUPPORTED 14:23 'N'
import pypto.language as pl

M = 16
N = pl.dynamic("N")


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(
        self,
        a: pl.Tensor[[N, 32], pl.FP16],  # <-- here
        b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
