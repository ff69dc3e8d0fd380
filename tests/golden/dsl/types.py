# Parameter and tile types: In/Out/InOut, Tile and Scalar parameters, pl.TileView(...) with every keyword,
# the empty pl.TileView(), extras in any order, and annotations that only refine memory and view.
# RUN: print
import pypto.language as pl


@pl.program
class Types:
    @pl.function(type=pl.FunctionType.AIV)
    def views(
        self,
        x: pl.Tensor[[32, 32], pl.FP32],
        io: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        n: pl.Scalar[pl.INDEX],
        f: pl.Scalar[pl.FP32],
        t: pl.Tile[[32, 32], pl.FP32, pl.TileView(), pl.MemorySpace.Vec],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        a: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 32], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, fractal=512, pad=None, stride=[32, 1], start_offset=0)] = pl.load(x, [0, 0], [32, 32])
        b = pl.add(t, t)
        c = pl.muls(b, f)
        d = pl.adds(c, n)
        e: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView()] = pl.exp(d)
        nz = pl.move(e, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
        s = pl.tile.set_validshape(a, 8, 32)
        io = pl.store(s, [0, 0], io)
        io = pl.store(nz, [n, 0], io)
        return io

# CHECK: # pypto.program: Types
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Types:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def views(self, x: pl.Tensor[[32, 32], pl.FP32], io: pl.InOut[pl.Tensor[[32, 32], pl.FP32]], n: pl.Scalar[pl.INDEX], f: pl.Scalar[pl.FP32], t: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView()]) -> pl.Tensor[[32, 32], pl.FP32]:
# CHECK:         a: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 32], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, fractal=512)] = pl.tile.load(x, [0, 0], [32, 32])
# CHECK:         b: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
# CHECK:         c: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(b, f)
# CHECK:         d: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(c, n)
# CHECK:         e: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView()] = pl.tile.exp(d)
# CHECK:         nz: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(e, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
# CHECK:         s: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 32], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, fractal=512)] = pl.tile.set_validshape(a, 8, 32)
# CHECK:         io: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(s, [0, 0], io)
# CHECK:         io: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(nz, [n, 0], io)
# CHECK:         return io
