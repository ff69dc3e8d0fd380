# Each block stores its half of a GM scratch, then gathers a row of the other block's half with
# pl.tile.gather_row and no barrier between the blocks: a cross-block RAW race through the row gather's GM read.
import pypto.language as pl


@pl.program
class GatherRowRace:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[32, 32], pl.FP32], scratch: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
          out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        blk = pl.tile.get_block_idx()
        t = pl.load(x, [blk * 16, 0], [16, 32])
        scratch_1 = pl.store(t, [blk * 16, 0], scratch)
        acc = pl.tile.full([16, 32], dtype=pl.FP32, value=0.0)
        g = pl.tile.gather_row(acc, scratch_1, [0, 0], [(1 - blk) * 16 + 3, 0], [1, 32])
        out_1 = pl.store(g, [blk * 16, 0], out)
        return out_1
