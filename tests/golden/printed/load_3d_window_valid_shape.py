# PyPTO prints a 3-D window load's valid_shape with the window's rank ([1, R, C]); it names the 2-D tile's
# valid region by its last two extents.
# RUN: check --schedules 3 --jobs 1
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class Window3d:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[2, 16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [1, 0, 0], [1, 16, 32], [1, 16, 32], target_memory=pl.Mem.Vec)
        out = pl.store(t, [0, 0], out)
        return out
