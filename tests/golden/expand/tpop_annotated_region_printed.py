# expand prints a tpop's annotated run-time valid region back (printed/tpop_annotated_valid_region.py), so the
# printed program reads back with the same region (before: `pl.TileView()`, and the read-back program's lane 1
# stored 16 rows past the tensor).
# RUN: expand tests/golden/printed/tpop_annotated_valid_region.py --v2c off
# CHECK: got: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows, cols])] = pl.tile.tpop_from_aic(split=1)
import pypto.language as pl
