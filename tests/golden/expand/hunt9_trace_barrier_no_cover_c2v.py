# hunt9 (hunt steps seed 1110, reduced): the C2V side of hunt9_trace_barrier_no_cover.py under --c2v complete: the cube
# stores rows i1 * 16 + 32 in the inner loop (line 31), and after it the vector loads rows (3 - i0) * 16 (line 32,
# ordered over the unrolled function by the barrier of the next inner iteration) and rows (3 - i0) * 16 + 16 (line 35:
# rows 48-63 in i0 = 1, stored at i1 = 1 after the last barrier). The second load got no barrier (E-RACE-RAW).
# RUN: check --v2c syncall --c2v complete
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs)
        co = pl.store(acc0, [0, 0], co)
        out = pl.store(vin, [0, 0], out)
        for i0_0 in pl.range(1, 4, 2):
            for i1_1 in pl.range(0, 2, 1):
                w4 = pl.adds(vin, 1.0)
                s0 = pl.store(w4, [i0_0 * 16 + 0, 0], s0)
                cm5 = pl.load(s0, [i1_1 * 16 + 32, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl6 = pl.move(cm5, target_memory=pl.MemorySpace.Left)
                cz7 = pl.matmul(cl6, rhs)
                co = pl.store(cz7, [0, 0], co)
                s0 = pl.store(acc0, [i1_1 * 16 + 32, 0], s0)
            g8 = pl.load(s0, [(3 - i0_0) * 16 + 0, 0], [16, 16])
            h9 = pl.add(g8, vin)
            out = pl.store(h9, [0, 0], out)
            g10 = pl.load(s0, [(3 - i0_0) * 16 + 16, 0], [16, 16])
            h11 = pl.add(g10, vin)
            out = pl.store(h11, [0, 0], out)
        return out
