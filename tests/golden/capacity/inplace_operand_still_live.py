# The reuse needs an operand to die at the op: here `ta` and `tb` are both read again after the add, so the
# three 64 KiB tiles are live together and overflow the a2a3 UB (184 KiB usable).
# RUN: check --schedules 5 --jobs 1
# ERROR: E-CAPACITY 14:9 UB (Vec)
import pypto.language as pl


@pl.program
class Overflows:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[128, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32], out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 128])
        tb = pl.load(b, [0, 0], [128, 128])
        tc = pl.add(ta, tb)  # <-- here
        td = pl.add(tc, ta)
        te = pl.add(td, tb)
        out = pl.store(te, [0, 0], out)
        return out
