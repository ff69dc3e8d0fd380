# hunt9 (hunt8a infeasible_path_reject_2): the vector stores s0 in `for i0_0 in pl.range(0, n)` under `if n == 0:`
# (never: an empty loop there), and the vector's store of s1 under `if n > 1:` and the cube's load of it in
# `for i0_1 in pl.range(0, n)` in the else arm (n <= 1) never run in one launch. Both were named by reject.
# RUN: expand --v2c reject
# CHECK: def kernel_aiv
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
        if n == 0:
            for i0_0 in pl.range(0, n):
                w3 = pl.adds(vin, 1.0)
                s0 = pl.store(w3, [32, 0], s0)
                s0 = pl.store(acc0, [16, 0], s0)
            g4 = pl.load(s0, [0, 0], [16, 16])
            h5 = pl.add(g4, vin)
            out = pl.store(h5, [0, 0], out)
        g6 = pl.load(s0, [16, 0], [16, 16])
        h7 = pl.add(g6, vin)
        out = pl.store(h7, [0, 0], out)
        if n > 1:
            w8 = pl.adds(vin, 1.0)
            s1 = pl.store(w8, [0, 0], s1)
        else:
            for i0_1 in pl.range(0, n):
                g9 = pl.load(s1, [16, 0], [16, 16])
                h10 = pl.add(g9, vin)
                out = pl.store(h10, [0, 0], out)
                cm11 = pl.load(s1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                cl12 = pl.move(cm11, target_memory=pl.MemorySpace.Left)
                cz13 = pl.matmul(cl12, rhs)
                co = pl.store(cz13, [0, 0], co)
            cm14 = pl.load(s0, [32, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            cl15 = pl.move(cm14, target_memory=pl.MemorySpace.Left)
            cz16 = pl.matmul(cl15, rhs)
            co = pl.store(cz16, [0, 0], co)
        return out
