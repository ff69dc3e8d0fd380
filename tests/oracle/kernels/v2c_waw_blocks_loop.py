# Loop-carried V2C write-after-write over two blocks with per-block bands (issue 10, --blocks 2): in each
# block's band of 64 rows, iteration i's vector lane writes rows (i+1)*16, which the cube overwrites in
# iteration i+1.
import pypto.language as pl


@pl.program
class V2cWawBlocksLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        c: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[128, 16], pl.FP32]],
    ) -> pl.Tensor[[128, 16], pl.FP32]:
        bi = pl.tile.get_block_idx()
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        cv = pl.load(c, [0, 0], [16, 16])
        for i in pl.range(3):
            z = pl.matmul(x_left, x_right)
            out = pl.store(z, [bi * 64 + i * 16, 0], out)
            e = pl.exp(cv)
            out = pl.store(e, [bi * 64 + i * 16 + 16, 0], out)
        return out
