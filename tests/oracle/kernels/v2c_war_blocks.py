# V2C write-after-read over two blocks with per-block bands (issue 10, --blocks 2): each block's vector
# lane reads its band of `io`, then its cube overwrites that band. Blocks never touch each other's rows.
import pypto.language as pl


@pl.program
class V2cWarBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        io: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        bi = pl.tile.get_block_idx()
        v = pl.load(io, [bi * 16, 0], [16, 16])
        e = pl.exp(v)
        out = pl.store(e, [bi * 16, 0], out)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        io = pl.store(z, [bi * 16, 0], io)
        return out
