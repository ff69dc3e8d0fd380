# hunt9: the race hunt9_trace_barrier_no_cover.py orders: the cube's load of rows 48-63 after the loop reads what the
# vector stored in its last iteration (E-RACE-RAW under off; reject names the first pair of the loop).
# RUN: check --v2c off
# CHECK: error[E-RACE-RAW]
# EXIT: 1
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], c2: pl.Out[pl.Tensor[[16, 16], pl.FP32]], c3: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        for i0 in pl.range(1, 4, 2):
            for i1 in pl.range(0, 2, 1):
                w4 = pl.adds(vin, 1.0)
                s0 = pl.store(w4, [(i0 // 3) * 16 + 64, 0], s0)
                cm5 = pl.load(s0, [(i0 // 3) * 16 + 64, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl6 = pl.move(cm5, target_memory=pl.MemorySpace.Left)
                cz7 = pl.matmul(cl6, rhs)
                co = pl.store(cz7, [0, 0], co)
                w5 = pl.adds(vin, 2.0)
                s0 = pl.store(w5, [i1 * 16 + 32, 0], s0)
            cm8 = pl.load(s0, [32, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            cl8 = pl.move(cm8, target_memory=pl.MemorySpace.Left)
            cz8 = pl.matmul(cl8, rhs)
            c2 = pl.store(cz8, [0, 0], c2)
            cm9 = pl.load(s0, [48, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            cl9 = pl.move(cm9, target_memory=pl.MemorySpace.Left)
            cz9 = pl.matmul(cl9, rhs)
            c3 = pl.store(cz9, [0, 0], c3)
        return co
