# pl.tile.gather_mask with an unknown pl.tile.MaskPattern member: E-TYPE naming the members, with a caret.
# RUN: run
# ERROR: E-TYPE 12:36 is not a member of pl.tile.MaskPattern
import pypto.language as pl


@pl.program
class Mask:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[1, 64], pl.FP32], out: pl.Out[pl.Tensor[[1, 32], pl.FP32]]) -> pl.Tensor[[1, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 64])
        m = pl.tile.gather_mask(t, pl.tile.MaskPattern.P0110)
        out_1 = pl.store(m, [0, 0], out)
        return out_1
