# a list whose closing bracket was deleted: the error points at the mismatched bracket.
# ERROR: E-PARSE 14:39 does not match
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        u = pl.add(t, t)
        v = pl.load(a, [0, 0], [16, 32)  # <-- here
        out = pl.store(t, [0, 0], out)
        return out
