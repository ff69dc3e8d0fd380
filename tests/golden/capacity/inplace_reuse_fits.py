# PyPTO's memory reuse writes an elementwise result over an operand whose life ends at that op: three
# 64 KiB FP32 tiles where at most two are live at once fit the a2a3 UB (184 KiB usable), as on the board.
# RUN: check --schedules 5 --jobs 1
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class Fits:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[128, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32], out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 128])
        tb = pl.load(b, [0, 0], [128, 128])
        tc = pl.add(ta, tb)
        td = pl.exp(tc)
        out = pl.store(td, [0, 0], out)
        return out
