# split= that contradicts the enclosing region.
# ERROR: E-TYPE 14:40 contradicts
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            g = pl.aic_gather(t, split=2)  # <-- here
        out = pl.store(t, [0, 0], out)
        return out
