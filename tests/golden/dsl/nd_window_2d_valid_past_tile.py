# A run-time 2-D valid_shape on a 3-D window: the region is the merged tile's ([2 * 3, 16] here). 8 rows are
# more than the tile's 6. Found by review: no check compared the two ranks. It is an E-OOB finding at the load.
# RUN: run
# EXIT: 1
# CHECK: error[E-OOB]: nd_window_2d_valid_past_tile.py:15: AIV0 pl.tile.load: valid_shape [8, 16] is outside
import pypto.language as pl


@pl.program
class NdValid:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[4, 3, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b + 8
        t: pl.Tile[[6, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0, 0], [2, 3, 16], [n, 16], target_memory=pl.Mem.Vec)
        y = pl.tile.store(t, [0, 0], y)
        return y
