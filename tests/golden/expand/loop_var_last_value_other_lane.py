# A cube-only loop whose variable a SHARED statement after it reads (`r = i * 16`: i = 1, its last value),
# before a later loop binds the name again. The AIV lane dropped the cube-only loop, so on that lane `r`
# read `i` before any binding (0): the vector stored rows 0..15 instead of 16..31 (check under fence:
# E-UNWRITTEN, E-MISMATCH, and a race on the wrong rows). The other lane now keeps such a loop's control
# flow (an empty loop) for its variable's last value.
# RUN: expand --v2c off
# CHECK:     def k_aiv(
# CHECK-NEXT:         for i in pl.range(2):
# CHECK-NEXT:             pass
# CHECK-NEXT:         r: pl.Scalar[pl.INDEX] = i * 16
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
