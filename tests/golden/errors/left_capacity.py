# a Left tile larger than L0A.
# RUN: check
# ERROR: E-CAPACITY 14:9 L0A (Left)
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        m = pl.load(a, [0, 0], [256, 256], target_memory=pl.Mem.Mat)
        l = pl.move(m, target_memory=pl.Mem.Left)  # <-- here
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
