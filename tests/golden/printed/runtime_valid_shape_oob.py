# A pl.tile.load whose run-time valid_shape is larger than the tile it loads (33 rows of a 16-row tile): the
# tile has no such rows, so both the simulator and the reference report E-OOB (before, the region was clamped
# to the tile silently and the run was clean).
# RUN: run --input rows=33
# EXIT: 1
# CHECK: error[E-OOB]: runtime_valid_shape_oob.py:14: AIV0 pl.tile.load: valid_shape [33, 64] is outside the
import pypto.language as pl


@pl.program
class RuntimeValid:
    @pl.function(type=pl.FunctionType.InCore)
    def band(x: pl.Tensor[[64, 64], pl.FP16], rows: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], valid_shape=[rows, 64])
        out = pl.tile.store(xv, [0, 0], out)
        return out
