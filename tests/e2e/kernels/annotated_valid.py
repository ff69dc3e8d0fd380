# A printed-IR style kernel whose load result carries its valid region only in the type annotation
# (pl.TileView(valid_shape=...)): the store writes just the valid rows, in the reference as in the run.
import pypto.language as pl

R = 16
C = 64


@pl.program
class AnnotatedValid:
    @pl.function(type=pl.FunctionType.InCore)
    def annotated_valid(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        y: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 64])] = pl.tile.load(x, [0, 0], [16, 64])
        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 64])] = pl.tile.add(t, t)
        y = pl.store(s, [0, 0], y)
        return y
