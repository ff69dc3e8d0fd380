# Racy twin of loop_var_last_value_fence.py: with --v2c off the vector's stores of rows 16..31 (r = 16) and
# the cube's loads of them are unordered.
# RUN: check --v2c off
# EXIT: 1
# CHECK: error[E-RACE-RAW]: RAW on GM scratch[16:32, 0:64]: AIV0 MTE3 write at
# CHECK-NOT: E-UNWRITTEN
import pypto.language as pl


@pl.program
class LoopVarCapture:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            xm = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
            out = pl.store(pl.matmul(xl, w_right), [0, 0], out)
        r = i * 16
        for i in pl.range(2):
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [r, 0], scratch)
            cm = pl.load(scratch, [i * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(cl, w_right)
            out = pl.store(z, [0, 0], out)
        return out
