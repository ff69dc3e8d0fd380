# Issue 10: the vector lane and then the cube store into the same rows of `out`. The sequential program
# leaves the cube's value; after the split the two stores race (write-after-write). The vector's store
# runs first, so it is V2C: --v2c fence / syncall order it, reject reports it, off leaves it.
import pypto.language as pl


@pl.program
class CrossLaneWaw:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        xv = pl.load(x, [0, 0], [16, 16])
        w = pl.cast(xv, pl.FP32)
        out = pl.store(w, [0, 0], out)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        out = pl.store(z, [0, 0], out)
        return out
