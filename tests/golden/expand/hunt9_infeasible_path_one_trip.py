# hunt9: the racy twin of hunt9_infeasible_path_empty_loop.py: `pl.range(0, n)` runs once at n == 1, and the cube
# loads s1 after the vector's store of it (E-RACE-RAW under off at n = 1).
# RUN: expand --v2c reject
# ERROR: E-V2C-UNFENCED 34:17
# EXIT: 1
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, n: pl.Scalar[pl.INDEX], a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], s1: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs)
        co = pl.store(acc0, [0, 0], co)
        out = pl.store(vin, [0, 0], out)
        w4 = pl.adds(vin, 1.0)
        s1 = pl.store(w4, [0, 0], s1)
        if n != 1:
            w5 = pl.adds(vin, 1.0)
            s0 = pl.store(w5, [0, 0], s0)
            g6 = pl.load(s0, [0, 0], [16, 16])
            h7 = pl.add(g6, vin)
            out = pl.store(h7, [0, 0], out)
        else:
            w8 = pl.adds(vin, 1.0)
            s0 = pl.store(w8, [0, 0], s0)
            for i0_0 in pl.range(0, n):
                s1 = pl.store(acc0, [16, 0], s1)
                cm9 = pl.load(s1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl10 = pl.move(cm9, target_memory=pl.MemorySpace.Left)
                cz11 = pl.matmul(cl10, rhs)
                co = pl.store(cz11, [0, 0], co)
                s0 = pl.store(acc0, [0, 0], s0)
        for i0_1 in pl.range(n, 3):
            for i1_2 in pl.range(0, 2):
                cm12 = pl.load(s1, [32, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl13 = pl.move(cm12, target_memory=pl.MemorySpace.Left)
                cz14 = pl.matmul(cl13, rhs)
                co = pl.store(cz14, [0, 0], co)
        w15 = pl.adds(vin, 1.0)
        s1 = pl.store(w15, [0, 0], s1)
        return out
