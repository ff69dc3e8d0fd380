# matmul on a Vec tile instead of Left.
# ERROR: E-TYPE 14:23 pl.Mem.Left
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        r = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        z = pl.matmul(t, r)  # <-- here
        out = pl.store(t, [0, 0], out)
        return out
