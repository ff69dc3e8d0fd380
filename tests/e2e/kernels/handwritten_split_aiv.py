# An already-expanded program written by hand: the AIV function carries attrs split=UP_DOWN but its body
# is written for the whole tile. Each AIV lane must work on its half of the rows (the vector split), so
# the two lanes' stores do not overlap.
import pypto.language as pl

M = 32
N = 64


@pl.program
class HandSplit:
    @pl.function(type=pl.FunctionType.AIC, attrs={"split": pl.SplitMode.UP_DOWN})
    def hand_split_aic(self, x: pl.Tensor[[M, N], pl.FP16], y: pl.Out[pl.Tensor[[M, N], pl.FP16]]):
        pass

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def hand_split_aiv(self, x: pl.Tensor[[M, N], pl.FP16], y: pl.Out[pl.Tensor[[M, N], pl.FP16]]) -> pl.Tensor[[M, N], pl.FP16]:
        t: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [32, 64])
        s: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(t, t)
        y: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(s, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Group, attrs={"split": pl.SplitMode.UP_DOWN})
    def hand_split(self, x: pl.Tensor[[M, N], pl.FP16], y: pl.Out[pl.Tensor[[M, N], pl.FP16]]) -> pl.Tensor[[M, N], pl.FP16]:
        self.hand_split_aic(x, y)
        r: pl.Tensor[[M, N], pl.FP16] = self.hand_split_aiv(x, y)
        return r
