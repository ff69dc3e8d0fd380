# hunt9 (hunt scalar_loops a5 seed 2037): the vector stores s0 (line 32) under `if m > 1:` / `if n != 1:`, the cube
# loads it (line 42) in the else arm of a later `if n != 1:` (n == 1): never in one launch. An interval cannot say
# n != 1, so the path facts also keep excluded values. Racy twin (the store under `n != 2`, which n == 1 takes):
# hunt9_infeasible_path_not_equal_meet.py.
# RUN: expand --v2c reject --target a5
# CHECK: def kernel_aiv
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX], a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], s1: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs)
        co = pl.store(acc0, [0, 0], co)
        out = pl.store(vin, [0, 0], out)
        g3 = pl.load(s0, [16, 0], [16, 16])
        h4 = pl.add(g3, vin)
        out = pl.store(h4, [0, 0], out)
        if m > 1:
            cm5 = pl.load(s0, [32, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            cl6 = pl.move(cm5, target_memory=pl.MemorySpace.Left)
            cz7 = pl.matmul(cl6, rhs)
            co = pl.store(cz7, [0, 0], co)
            if n != 1:
                w8 = pl.adds(vin, 1.0)
                s0 = pl.store(w8, [0, 0], s0)
        else:
            g9 = pl.load(s0, [0, 0], [16, 16])
            h10 = pl.add(g9, vin)
            out = pl.store(h10, [0, 0], out)
        if n != 1:
            w11 = pl.adds(vin, 1.0)
            s1 = pl.store(w11, [32, 0], s1)
        else:
            for i0_0 in pl.range(n, 3):
                cm12 = pl.load(s0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl13 = pl.move(cm12, target_memory=pl.MemorySpace.Left)
                cz14 = pl.matmul(cl13, rhs)
                co = pl.store(cz14, [0, 0], co)
            for i0_1 in pl.range(0, m + 1):
                w15 = pl.adds(vin, 1.0)
                s1 = pl.store(w15, [32, 0], s1)
                cm16 = pl.load(s1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl17 = pl.move(cm16, target_memory=pl.MemorySpace.Left)
                cz18 = pl.matmul(cl17, rhs)
                co = pl.store(cz18, [0, 0], co)
                w19 = pl.adds(vin, 1.0)
                s1 = pl.store(w19, [32, 0], s1)
        return out
