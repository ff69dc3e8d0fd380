# An 8-bit float dtype is read and sized (expand works), but running it is refused with E-UNSUPPORTED
# naming the variable: cvsim has no FP8 arithmetic yet.
# RUN: run
# ERROR: E-UNSUPPORTED 11:11 pl.FP8E4M3FN
import pypto.language as pl


@pl.program
class Fp8:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[16, 32], pl.FP8E4M3FN], out: pl.Out[pl.Tensor[[16, 32], pl.FP8E4M3FN]]) -> pl.Tensor[[16, 32], pl.FP8E4M3FN]:
        t: pl.Tile[[16, 32], pl.FP8E4M3FN, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
        out_1: pl.Tensor[[16, 32], pl.FP8E4M3FN] = pl.tile.store(t, [0, 0], out)
        return out_1
