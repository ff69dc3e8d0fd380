# split_cross_lane_waw.py under --v2c reject: the cross-lane write-after-write the split creates is named
# at the second store (it was not: only the checker's E-RACE-WAW reported it).
# RUN: check --v2c reject
# EXIT: 1
# ERROR: E-V2C-UNFENCED 23:9 vector store of 'scratch' overwrites GM that the vector store at
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
