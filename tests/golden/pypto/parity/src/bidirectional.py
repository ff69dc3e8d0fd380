# parity fixture: V2C then C2V in one kernel (both pipe directions, one slot size for both).
import pypto.language as pl


@pl.program
class Bidirectional:
    @pl.function(type=pl.FunctionType.InCore)
    def round_trip(
        self,
        x: pl.Tensor[[16, 64], pl.BF16],
        w: pl.Tensor[[64, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_vec = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        xs = pl.mul(x_vec, 0.5)
        xs_mat = pl.move(xs, target_memory=pl.MemorySpace.Mat)
        xs_left = pl.move(xs_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(xs_left, w_right)
        z_vec = pl.move(z, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
        r = pl.relu(z_vec)
        out = pl.store(r, [0, 0], out)
        return out
