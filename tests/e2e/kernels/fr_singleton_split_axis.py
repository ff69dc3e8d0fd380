# A LEFT_RIGHT split function whose [16, 1] column scale has extent 1 on the split axis (columns): the
# scale is left whole on both AIV lanes (as upstream's SplitVectorKernel leaves it) while the matmul
# result is halved by columns; each lane scales its half of the rows' columns.
import pypto.language as pl


@pl.program
class SingletonSplitAxis:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def scale_rows(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        s: pl.Tensor[[16, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, w_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        col = pl.load(s, [0, 0], [16, 1], target_memory=pl.MemorySpace.Vec)
        y = pl.row_expand_mul(zv, col)
        out = pl.store(y, [0, 0], out)
        return out
