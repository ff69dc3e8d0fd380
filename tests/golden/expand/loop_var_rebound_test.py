# The loop variable re-bound in the body (`i = i + 4`) then tested (`if i == 5:`): the enumeration of the
# loop's iterations evaluated the test with the iteration's value (0, 1: never 5), so the guarded store
# looked dead and fence ordered nothing (check: E-RACE-RAW, E-RACE-WAR). A re-bound loop variable is left
# unbound in the enumeration (the arm may run). Racy twin: loop_var_rebound_test_off.py.
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
            i = i + 4
            if i == 5:
                xv = pl.load(x, [0, 0], [16, 64])
                tv = pl.add(xv, xv)
                scratch = pl.store(tv, [16, 0], scratch)
            cm = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(cl, w_right)
            out = pl.store(z, [0, 0], out)
        return out
