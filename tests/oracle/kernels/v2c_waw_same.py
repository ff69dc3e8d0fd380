# V2C write-after-write (issue 10): the vector lane stores a provisional `out`, then the cube overwrites
# the same rows. The sequential program leaves the cube's value; --v2c orders the pair (fence: a token of
# the stored tile, published by a vector fence).
import pypto.language as pl


@pl.program
class V2cWawSame:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        c: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        cv = pl.load(c, [0, 0], [16, 16])
        e = pl.exp(cv)
        out = pl.store(e, [0, 0], out)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        out = pl.store(z, [0, 0], out)
        return out
