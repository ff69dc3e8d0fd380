# Control flow and scalar expressions as PyPTO prints them: pl.range with init_values and pl.yield_,
# pl.pipeline(..., stage=), pl.parallel, loop attrs, scalar pl.cast / pl.min / pl.max, typed constants (also
# the printer's bare -inf) and pl.TileView extras. (mixed_check_verdict.py runs `check` on the printed style.)
# RUN: print
# pypto.program: PrintedControlFlow
import pypto.language as pl


@pl.program
class PrintedControlFlow:
    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        acc0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        for i, (acc,) in pl.range(1, 4, init_values=(acc0,)):
            row: pl.Scalar[pl.INDEX] = pl.min(i * 16, 48)
            t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64])
            acc_1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_2 = pl.yield_(acc_1)
        for k in pl.pipeline(2, stage=2):
            w: pl.Scalar[pl.FP32] = pl.cast(pl.max(k, pl.const(1, pl.INT64)), pl.FP32)
            acc_3: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(acc_2, w)
        floor: pl.Scalar[pl.FP32] = pl.const(-inf, pl.FP32)
        for j in pl.parallel(1, attrs={'unroll_hint': 2}):
            half: pl.Scalar[pl.INT32] = pl.cast(j, pl.INT32) + pl.const(8, pl.INT32)
        part: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 32], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, pad=pl.PadValue.zero, compact=pl.CompactMode.null)] = pl.tile.muls(acc_3, pl.const(1.0, pl.FP32))
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(acc_3, [0, 0], out)
        return out_1

# CHECK: # pypto.program: PrintedControlFlow
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class PrintedControlFlow:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def accumulate(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         acc0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
# CHECK:         for i, (acc,) in pl.range(1, 4, init_values=(acc0,)):
# CHECK:             row: pl.Scalar[pl.INDEX] = pl.min(i * 16, 48)
# CHECK:             t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64])
# CHECK:             acc_1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
# CHECK:             acc_2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_1)
# CHECK:         for k in pl.pipeline(2, stage=2):
# CHECK:             w: pl.Scalar[pl.FP32] = pl.cast(pl.max(k, pl.const(1, pl.INT64)), pl.FP32)
# CHECK:             acc_3: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(acc_2, w)
# CHECK:         floor: pl.Scalar[pl.FP32] = pl.const(-inf, pl.FP32)
# CHECK:         for j in pl.parallel(1, attrs={'unroll_hint': 2}):
# CHECK:             half: pl.Scalar[pl.INT32] = pl.cast(j, pl.INT32) + pl.const(8, pl.INT32)
# CHECK:         part: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 32], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)] = pl.tile.muls(acc_3, pl.const(1.0, pl.FP32))
# CHECK:         out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(acc_3, [0, 0], out)
# CHECK:         return out_1
