# A pl.split_aiv region in a vector-only InCore function: each AIV lane copies its own half of x (lane 0 rows
# 0-7, lane 1 rows 8-15); no two lanes write the same bytes.
import pypto.language as pl


@pl.program
class SplitRegionVectorOnly:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split_aiv": True})
    def f(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]) -> pl.Tensor[[16, 16], pl.FP16]:
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            v = pl.load(x, [lane * 8, 0], [8, 16])
            out = pl.store(v, [lane * 8, 0], out)
        return out
