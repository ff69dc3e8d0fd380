# hunt8a: an UP_DOWN split function stores a tile at rows (i % 2) * 16 + 32 in a 3-trip loop: lane 0 writes rows
# 32-39 or 48-55, lane 1 rows 40-47 or 56-63, never the same row. The `%` atom (over more than one period) is
# free in each iteration, and two free copies of it were one interval: the two iterations' halves seemed to
# meet (E-V2C-UNFENCED under reject, a barrier under fence). Each copy is now enumerated on its own. Racy
# twin (rows (i % 2) * 8 + 32: lane 0 of one iteration meets lane 1 of another): *_meet.py.
# RUN: check --v2c reject
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        acc = pl.matmul(lhs, rhs)
        co = pl.store(acc, [0, 0], co)
        for i in pl.range(3):
            w = pl.adds(vin, 1.0)
            s = pl.store(w, [(i % 2) * 16 + 32, 0], s)
        return co
