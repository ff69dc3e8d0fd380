# A branch on a re-bound loop variable: `i = 5` after a range(2) loop, then `if i > 4:` guards a vector
# store of the rows the loop's cube loads read (a cube-first WAR). With `i` taken as the loop variable in
# [0, 1] the condition looked statically false and the store dead: fence added nothing (check:
# E-RACE-WAR), reject was silent. A re-bound loop variable decides no condition statically.
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarReboundBranch:
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
            cm = pl.load(scratch, [i * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(cl, w_right)
            out = pl.store(z, [0, 0], out)
        i = 5
        if i > 4:
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [0, 0], scratch)
        return out
