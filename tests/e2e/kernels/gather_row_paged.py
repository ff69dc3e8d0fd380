# Paged gather with pl.tile.gather_row (DPS, one GM row into a sub-region of an accumulator tile): a block table in
# GM names which pool row lands in each accumulator row; the last gather moves half a row (valid_shape) and the
# rest of that row keeps the accumulator's fill value. Each block fills its own accumulator from the shared pool.
import pypto.language as pl


@pl.program
class GatherRowPaged:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, pool: pl.Tensor[[16, 32], pl.FP32], table: pl.Tensor[[2, 4], pl.INT32],
          out: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        blk = pl.tile.get_block_idx()
        acc0 = pl.tile.full([4, 32], dtype=pl.FP32, value=-1.0)
        b0 = pl.tensor.read(table, [blk, 0])
        acc1 = pl.tile.gather_row(acc0, pool, [0, 0], [b0, 0], [1, 32])
        b1 = pl.tensor.read(table, [blk, 1])
        acc2 = pl.tile.gather_row(acc1, pool, [1, 0], [b1, 0], [1, 32], False)
        b2 = pl.tensor.read(table, [blk, 2])
        acc3 = pl.tile.gather_row(acc2, pool, [2, 0], [b2, 0], [1, 32], transpose=False)
        b3 = pl.tensor.read(table, [blk, 3])
        acc4 = pl.tile.gather_row(acc3, pool, [3, 16], [b3, 0], [1, 32], valid_shape=[1, 16])
        out_1 = pl.store(acc4, [blk * 4, 0], out)
        return out_1
