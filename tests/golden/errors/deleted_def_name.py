# the function name after def was deleted.
# ERROR: E-PARSE 11:9 function name
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def (self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
