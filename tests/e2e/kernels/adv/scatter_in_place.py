# pl.tile.scatter as a statement writes its destination in place: dst starts at 0, every element gets 1 from
# src, so out[0, 0] must be 1. The statement's result was dropped (a silent no-op: out stayed 0).
import pypto.language as pl


@pl.program
class ScatterInPlace:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.full([16, 16], dtype=pl.FP32, value=0.0)
        t2 = pl.full([16, 16], dtype=pl.FP32, value=1.0)
        idx = pl.tile.ci(0, [16, 16], dtype=pl.INT32)
        pl.tile.scatter(t, t2, idx)
        out = pl.store(t, [0, 0], out)
        return out
