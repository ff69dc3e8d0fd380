# The name `i` is bound by a loop over a scalar `n` (unknown range) and by a later range(1) loop. The window
# analysis took the constant loop's bounds [0, 0] for the variable, so the vector store at rows i * 16 looked
# like rows 0..15 only, disjoint from the cube's load of rows 16..31: no dependency, `fence` added nothing
# and reject was silent, while n = 2 makes iteration 1 write exactly those rows. A variable one of whose
# loops has an unknown range is unbounded: reject now names the pair (fence/syncall order it; the racy twin,
# --v2c off, is loop_var_reused_unbounded_off.py).
# RUN: check --v2c reject --input n=2
# EXIT: 1
# ERROR: E-V2C-UNFENCED 30:9 cube load of 'scratch' reads GM written by the vector store at
import pypto.language as pl


@pl.program
class LoopVarReusedUnbounded:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(n):
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [i * 16, 0], scratch)
        cm = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, w_right)
        out = pl.store(cz, [0, 0], out)
        for i in pl.range(1):
            cm2 = pl.load(scratch, [48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl2 = pl.move(cm2, target_memory=pl.MemorySpace.Left)
            cz2 = pl.matmul(cl2, w_right)
            out = pl.store(cz2, [0, 0], out)
        return out
