# A kernel over a pl.dynamic number of rows M. Given --input x=FILE.npy, M takes the file's row count (no
# --dim needed): the kernel doubles the first 16 rows of x into y, whatever M is.
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class DynamicInput:
    @pl.function(type=pl.FunctionType.InCore)
    def head(self, x: pl.Tensor[[M, 64], pl.FP32], y: pl.Out[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        s = pl.add(t, t)
        y = pl.store(s, [0, 0], y)
        return y
