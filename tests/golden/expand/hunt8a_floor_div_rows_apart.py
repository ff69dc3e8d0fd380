# hunt8a: x // c over a loop variable of constant range is bounded ([min / c, max / c], a constant when the
# range stays within one period). The cube stores rows (i // 2) * 16 = 0-15 (i in 0..1), the vector lane loads
# rows 32-63: apart. `//` made the offset unknown: E-V2C-UNFENCED under reject. Twin: hunt8a_floor_div_rows_meet.py.
# RUN: check --v2c reject
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        for i in pl.range(2):
            g = pl.load(s, [(i % 2) * 16 + 32, 0], [16, 16])
            h = pl.add(g, vin)
            out = pl.store(h, [0, 0], out)
            s = pl.store(acc, [(i // 2) * 16, 0], s)
        return out
