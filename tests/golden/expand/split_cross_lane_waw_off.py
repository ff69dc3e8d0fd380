# Racy twin of split_cross_lane_waw.py: with --v2c off AIV0's half of the first store and AIV1's half of
# the second write rows 16..31 unordered.
# RUN: check --v2c off
# EXIT: 1
# CHECK: error[E-RACE-WAW]: WAW on GM scratch[16:32, 0:64]: AIV0 MTE3 write at
import pypto.language as pl


@pl.program
class SplitWaw:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        x: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        xa = pl.load(x, [0, 0], [32, 64])
        ta = pl.add(xa, xa)
        scratch = pl.store(ta, [16, 0], scratch)
        tb = pl.mul(xa, xa)
        scratch = pl.store(tb, [0, 0], scratch)
        cm = pl.load(scratch, [48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [0, 0], out)
        return out
