# Racy twin of loop_var_reused_carried_war.py: with --v2c off nothing orders the lanes, and the carried WAR
# (iteration 0's cube load of scratch rows 0..15, iteration 1's vector store of them) is a race of its own,
# besides the RAW.
# RUN: check --v2c off
# EXIT: 1
# CHECK: error[E-RACE-RAW]: RAW on GM scratch[0:16, 0:64]: AIV0 MTE3 write at
# CHECK-NEXT: loop_var_reused_carried_war_off.py:28 (cycle
# CHECK: error[E-RACE-WAR]: WAR on GM scratch[0:16, 0:64]: AIC MTE2 read at
# CHECK-NEXT: loop_var_reused_carried_war_off.py:29 (cycle
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
