# pl.tile.sort32 of an FP16 tile: PyPTO types the result [R, 2C] but the 8-byte value-index tuples need 4C halves,
# so cvsim rejects it (E-UNSUPPORTED at the source operand) instead of overflowing the tile.
# RUN: run
# ERROR: E-UNSUPPORTED 14:28 FP16 is not supported
import pypto.language as pl


@pl.program
class Sort16:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[1, 32], pl.FP16], i: pl.Tensor[[1, 32], pl.UINT32], out: pl.Out[pl.Tensor[[1, 64], pl.FP16]]) -> pl.Tensor[[1, 64], pl.FP16]:
        t = pl.load(x, [0, 0], [1, 32])
        it = pl.load(i, [0, 0], [1, 32])
        s = pl.tile.sort32(t, it)
        out_1 = pl.store(s, [0, 0], out)
        return out_1
