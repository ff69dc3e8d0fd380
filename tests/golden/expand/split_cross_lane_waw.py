# An UP_DOWN split function stores two [32, 64] tiles into overlapping rows of one scratch: rows 16..47,
# then rows 0..31. Each AIV lane stores its half, so AIV0's half of the first store (rows 16..31) and
# AIV1's half of the second (rows 16..31 too) are two writes on different cores that the split created,
# unordered; the unsplit program's second store wins, the split one's is timing. `fence` ordered the
# split's store/load pairs but not two stores (check: E-RACE-WAW, E-MISMATCH); it now places fence +
# syncall before the second store, as for a load (racy twin: split_cross_lane_waw_off.py).
# RUN: check --v2c fence
# CHECK: PASS: no finding in any explored schedule
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
