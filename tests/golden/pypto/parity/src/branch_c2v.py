# parity fixture: a branch on a scalar parameter, the C2V crossing inside one arm.
import pypto.language as pl


@pl.program
class BranchC2v:
    @pl.function(type=pl.FunctionType.InCore)
    def pick(
        self,
        x: pl.Tensor[[16, 64], pl.BF16],
        w: pl.Tensor[[64, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        flag: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, w_right)
        if flag > 0:
            z_vec = pl.move(z, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
            e = pl.exp(z_vec)
            out = pl.store(e, [0, 0], out)
        return out
