# parity fixture: a loop whose body crosses C2V every iteration (push, pop and free inside the loop).
import pypto.language as pl


@pl.program
class LoopC2v:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(
        self,
        x: pl.Tensor[[64, 64], pl.BF16],
        w: pl.Tensor[[64, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            x_mat = pl.load(x, [i * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(x_left, w_right)
            z_vec = pl.move(z, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
            e = pl.exp(z_vec)
            out = pl.store(e, [i * 16, 0], out)
        return out
