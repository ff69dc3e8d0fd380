# A 4-bit window whose column offset is computed at run time: the second iteration starts at column 17, the middle of
# a byte (two FP4 elements per byte), which is an E-OOB finding at run time (sema cannot see it).
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP4], o: pl.Out[pl.Tensor[[16, 32], pl.FP4]]):
        for i in pl.range(2):
            x = pl.load(a, [0, i * 17], [16, 14])
            o = pl.store(x, [0, 0], o)
