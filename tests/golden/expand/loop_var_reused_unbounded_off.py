# Racy twin of loop_var_reused_unbounded.py: with --v2c off, at n = 2, iteration 1's vector store of rows
# 16..31 races with the cube's load of them.
# RUN: check --v2c off --input n=2
# EXIT: 1
# CHECK: error[E-RACE-RAW]: RAW on GM scratch[16:32, 0:64]: AIV0 MTE3 write at
# CHECK-NEXT: loop_var_reused_unbounded_off.py:26 (cycle
import pypto.language as pl


@pl.program
class LoopVarReusedUnbounded:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(n):
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [i * 16, 0], scratch)
        cm = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, w_right)
        out = pl.store(cz, [0, 0], out)
        for i in pl.range(1):
            cm2 = pl.load(scratch, [48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl2 = pl.move(cm2, target_memory=pl.MemorySpace.Left)
            cz2 = pl.matmul(cl2, w_right)
            out = pl.store(cz2, [0, 0], out)
        return out
