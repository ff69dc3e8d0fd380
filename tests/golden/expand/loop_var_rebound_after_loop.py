# A loop variable's name re-bound by an assignment after the loop (`i = 3`): the cube then loads rows
# (i - 2) * 16 = 16..31, which the loop's iteration 1 stored. The window analysis kept `i` as the loop
# variable in [0, 1], so the load looked like rows -32..-17, apart from the stores: no dependency, fence
# added nothing (check: E-RACE-RAW) and reject was silent. A loop variable an assignment also binds has no
# affine form (unknown: it may overlap). Racy twin: loop_var_rebound_after_loop_off.py.
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarRebound:
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
            scratch = pl.store(tv, [i * 16, 0], scratch)
        i = 3
        cm = pl.load(scratch, [(i - 2) * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [0, 0], out)
        return out
