# A store's N-D window (`shapes=`) with a run-time extent covers more rows than its tile holds: the store would
# write bytes the tile does not have. Found by review: both engines wrote 32 rows from an 8-row tile and the
# verdict was PASS. It is an E-OOB finding when the store runs.
# RUN: run
# EXIT: 1
# CHECK: error[E-OOB]: store_shapes_past_tile.py:17: AIV0 pl.tile.store: window [4, 8, 16] is larger than the
import pypto.language as pl


@pl.program
class PastTile:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]]) -> pl.Tensor[[4, 8, 16], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b + 4
        t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
        y = pl.tile.store(t, [0, 0, 0], y, [n, 8, 16])
        return y
