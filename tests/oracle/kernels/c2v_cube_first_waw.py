# --c2v complete (issue 10): the cube stores `out`, then the vector lane overwrites the same rows. The
# cube's access runs first, so this write-after-write is C2V: upstream leaves it, `complete` orders it.
import pypto.language as pl


@pl.program
class CubeFirstWaw:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        out = pl.store(z, [0, 0], out)
        xv = pl.load(x, [0, 0], [16, 16])
        w = pl.cast(xv, pl.FP32)
        out = pl.store(w, [0, 0], out)
        return out
