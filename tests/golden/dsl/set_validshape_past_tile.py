# pl.tile.set_validshape with run-time rows larger than the tile: the region names memory the tile does not
# have. Found by review: the simulator clamped it silently. It is an E-OOB finding in both engines.
# RUN: run
# EXIT: 1
# CHECK: error[E-OOB]: set_validshape_past_tile.py:16: AIV0 pl.tile.set_validshape: valid shape [20, 16] is
import pypto.language as pl


@pl.program
class SvsPast:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b + 20
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        u = pl.tile.set_validshape(t, n, 16)
        y = pl.tile.store(u, [0, 0], y)
        return y
