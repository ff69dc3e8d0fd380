# Two loops re-bind the same name `i` (one variable): the first, range(2), reuses one scratch tile that the
# vector stores and the cube loads each iteration (a loop-carried WAR: iteration 1's store must wait for
# iteration 0's cube load); the second, range(1), only stores other rows. The window analysis kept the
# bounds of the LAST loop binding `i` ([0, 0]), so the first loop looked like a 1-trip loop that carries
# nothing: `fence` placed the RAW barrier but not the WAR's second one, and check reported E-RACE-WAR.
# The variable's bounds are the union of its loops' ranges; the carried WAR gets its barrier (the racy
# twin, --v2c off, is loop_var_reused_carried_war_off.py).
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarReused:
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
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [0, 0], scratch)
            cm = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            cz = pl.matmul(cl, w_right)
            out = pl.store(cz, [0, 0], out)
        for i in pl.range(1):
            xv2 = pl.load(x, [0, 0], [16, 64])
            scratch = pl.store(xv2, [16, 0], scratch)
        return out
