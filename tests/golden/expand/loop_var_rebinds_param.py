# A scalar parameter's name re-bound as a loop variable (`for n in pl.range(2)`): before the loop the cube
# loads rows (n - 2) * 16 with the parameter's value (0..15 at n = 2), which the loop's first store then
# overwrites (a cube-first WAR). The window analysis took n for the loop variable in [0, 1] everywhere
# (rows -32..-17: apart), so fence added nothing (check: E-RACE-WAR). A loop variable that is also a
# parameter has no affine form.
# RUN: check --v2c fence --input n=2
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarParam:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        cm = pl.load(scratch, [(n - 2) * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [0, 0], out)
        for n in pl.range(2):
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [n * 16, 0], scratch)
        return out
