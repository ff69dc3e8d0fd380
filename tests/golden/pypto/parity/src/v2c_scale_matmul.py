# parity fixture: vector pre-scale, then the cube's matmul (one V2C boundary into Mat, moved on to Left).
import pypto.language as pl


@pl.program
class V2cScaleMatmul:
    @pl.function(type=pl.FunctionType.InCore)
    def scale_mm(
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
        out = pl.store(z, [0, 0], out)
        return out
