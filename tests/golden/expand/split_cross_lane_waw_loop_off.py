# Racy twin of split_cross_lane_waw_loop.py: with --v2c off the two iterations' halves on different AIV lanes
# write columns 64..127 unordered.
# RUN: check --v2c off
# EXIT: 1
# CHECK: error[E-RACE-WAW]: WAW on GM scratch[0:16, 64:128]: AIV1 MTE3 write at
import pypto.language as pl


@pl.program
class SplitWawLoop:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def k(
        self,
        x: pl.Tensor[[16, 128], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[16, 256], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        for i in pl.range(2):
            xa = pl.load(x, [0, 0], [16, 128])
            ta = pl.add(xa, xa)
            scratch = pl.store(ta, [0, i * 64], scratch)
        cm = pl.load(scratch, [0, 192], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [0, 0], out)
        return out
