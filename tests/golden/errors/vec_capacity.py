# three live 64 KiB tiles overflow the vector buffer.
# RUN: check
# ERROR: E-CAPACITY 15:9 UB (Vec)
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t1 = pl.load(a, [0, 0], [128, 256])
        t2 = pl.add(t1, t1)
        t3 = pl.add(t2, t1)  # <-- here
        t4 = pl.add(t3, t2)
        t5 = pl.add(t4, t1)
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
