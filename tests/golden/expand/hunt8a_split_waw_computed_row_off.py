# hunt8a: hunt8a_split_waw_computed_row.py under off: the split's cross-lane write-after-write races.
# RUN: check --v2c off
# CHECK: error[E-RACE-WAW]
# EXIT: 1
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
