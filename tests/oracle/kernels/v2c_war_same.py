# V2C write-after-read (issue 10): the vector lane reads `io`, then the cube overwrites the same rows.
# The vector access runs first, so --v2c orders it (fence: a token of the loaded tile).
import pypto.language as pl


@pl.program
class V2cWarSame:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        io: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        v = pl.load(io, [0, 0], [16, 16])
        e = pl.exp(v)
        out = pl.store(e, [0, 0], out)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        io = pl.store(z, [0, 0], io)
        return out
