# an even up-down split of an odd number of rows.
# ERROR: E-TYPE 13:13 evenly
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[17, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        m = pl.load(a, [0, 0], [17, 32], target_memory=pl.Mem.Mat)
        h = pl.aiv_shard(m, split=1)  # <-- here
        t = pl.load(a, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out
