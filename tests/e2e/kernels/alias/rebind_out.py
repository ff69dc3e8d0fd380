# `out = self.good(a, out)`: the kernel returns what it writes (its Out tensor), so the rebound `out` is not
# `a`; the launch was refused as aliasing a and out (E-UNSUPPORTED).
import pypto.language as pl


@pl.program
class Two:
    @pl.function(type=pl.FunctionType.InCore)
    def good(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        e = pl.exp(t)
        out = pl.store(e, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def bad(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        e = pl.exp(t)
        out = pl.store(e, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.good(a, out)
        return out
