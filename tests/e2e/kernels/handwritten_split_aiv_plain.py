# What handwritten_split_aiv.py computes, as one unsplit vector kernel (same tensor names, so the same
# seeded inputs): the outputs must be identical.
import pypto.language as pl

M = 32
N = 64


@pl.program
class HandSplitPlain:
    @pl.function(type=pl.FunctionType.InCore)
    def hand_split(self, x: pl.Tensor[[M, N], pl.FP16], y: pl.Out[pl.Tensor[[M, N], pl.FP16]]) -> pl.Tensor[[M, N], pl.FP16]:
        t = pl.load(x, [0, 0], [M, N])
        s = pl.add(t, t)
        y = pl.store(s, [0, 0], y)
        return y
