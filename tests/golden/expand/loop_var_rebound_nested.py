# Nested loops binding the same name: after the inner `for i in pl.range(3)` the outer body sees i = 2, so
# the cube loads rows (i - 1) * 16 = 16..31 in every outer iteration, which the vector's store of outer
# iteration 1 (rows i * 16) rewrites after iteration 0's load (a carried WAR). The window analysis took i
# for the outer loop's value in both accesses (store rows i*16, load rows (i-1)*16: never the same in a
# later iteration), so fence ordered only the RAW (check: E-RACE-WAR). A loop variable that a nested loop
# re-binds has no affine form.
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarNested:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[48, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [i * 16, 0], scratch)
            for i in pl.range(3):
                xm = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
                xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
                out = pl.store(pl.matmul(xl, w_right), [0, 0], out)
            cm = pl.load(scratch, [(i - 1) * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(cl, w_right)
            out = pl.store(z, [0, 0], out)
        return out
