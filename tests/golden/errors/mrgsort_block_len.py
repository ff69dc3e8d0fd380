# pl.tile.mrgsort format 1 with a block_len that is not a positive multiple of 64: PyPTO's type error, at block_len.
# RUN: run
# ERROR: E-TYPE 12:42 requires block_len to be a positive multiple of 64, but got 48
import pypto.language as pl


@pl.program
class Merge:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[1, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 256], pl.FP32]]) -> pl.Tensor[[1, 256], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 256])
        m = pl.tile.mrgsort(t, block_len=48)
        out_1 = pl.store(m, [0, 0], out)
        return out_1
