# Another face of the re-bound loop variable (loop_var_reused_carried_war.py): the store sits under
# `if i > 0` in a range(3) loop, and a later range(1) loop re-binds `i`. With the last loop's bounds [0, 0]
# the condition looked statically false, the store dead: no dependency on the cube's load after the loop,
# so fence added nothing (check: E-RACE-RAW) and reject was silent. With the union of the ranges the
# condition is not static and the store's V2C dependency is ordered.
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarBranch:
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
        for i in pl.range(3):
            if i > 0:
                xv = pl.load(x, [0, 0], [16, 64])
                tv = pl.add(xv, xv)
                scratch = pl.store(tv, [0, 0], scratch)
        cm = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [0, 0], out)
        for i in pl.range(1):
            xv2 = pl.load(x, [0, 0], [16, 64])
            scratch = pl.store(xv2, [16, 0], scratch)
        return out
