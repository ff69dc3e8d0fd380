# hunt8a: a LEFT_RIGHT split function stores two halved tiles in a loop, the second at a computed row
# ((i // 2) * 16) and column 8: lane 1's half of the first (columns 8-15) and lane 0's half of the second
# (columns 8-15) are a write-after-write the split creates. fence ordered it only when both windows were
# known: a computed row left the pair out (E-RACE-WAW, E-MISMATCH under fence). Racy twin: *_off.py.
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[32, 32], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        acc = pl.matmul(lhs, rhs)
        co = pl.store(acc, [0, 0], co)
        for i in pl.range(2):
            w = pl.adds(vin, 1.0)
            s = pl.store(w, [0, 0], s)
            w2 = pl.adds(vin, 2.0)
            s = pl.store(w2, [(i // 2) * 16, 8], s)
        return co
