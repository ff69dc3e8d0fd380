# The loop variable re-bound inside the body, in an arm that tests it: `if i == 0: i = 1` and the store at
# rows i * 16 = 16..31 that the cube's load then reads. The window analysis took the arm's test for the
# value (i = 0: rows 0..15, apart from the load): no dependency, fence added nothing (check: E-RACE-RAW).
# A re-bound loop variable has no affine form, even in an arm that tests it.
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarArm:
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
            if i == 0:
                i = 1
                xv = pl.load(x, [0, 0], [16, 64])
                tv = pl.add(xv, xv)
                scratch = pl.store(tv, [i * 16, 0], scratch)
            cm = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(cl, w_right)
            out = pl.store(z, [0, 0], out)
        return out
