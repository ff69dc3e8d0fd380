# A PyPTO kernel *source* (a @pl.jit entry with a `with pl.at(...)` core-group scope): cvsim reads it only
# through the PyPTO bridge (PyPTO compiles it up to ExpandMixedKernel first).
import pypto.language as pl


@pl.jit
def mm_relu(
    x: pl.Tensor[[16, 64], pl.BF16],
    w: pl.Tensor[[64, 64], pl.BF16],
    out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        x_mat = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, w_right)
        z_vec = pl.move(z, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
        r = pl.relu(z_vec)
        pl.store(r, [0, 0], out)
    return out
