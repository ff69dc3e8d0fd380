# A pl.dynamic symbol that no --dim binds takes the documented default (128) where a constant dimension is
# needed, with a note on stderr; the expanded program prints the value.
# RUN: expand
# CHECK: a: pl.Tensor[[128, 32], pl.FP16]
import pypto.language as pl

M = 16
N = pl.dynamic("N")


@pl.program
class DynDefault:
    @pl.function(type=pl.FunctionType.InCore)
    def f(
        self,
        a: pl.Tensor[[N, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
