# a pl.tensor.read at a constant index past the tensor: E-OOB at parse time (SPEC 4.2), as a load window is
# (it was a run-time finding, or only E-UNCHECKED when the lanes dropped the unused read).
# ERROR: E-OOB 12:13 outside tensor
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        q = pl.tensor.read(a, [16, 0])  # <-- here
        u = pl.adds(t, q)
        out = pl.store(u, [0, 0], out)
        return out
