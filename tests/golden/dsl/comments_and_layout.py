"""A module docstring is a comment."""
# Comments everywhere (inside brackets too), docstrings, line continuations, trailing commas, blank
# lines, implicit line joining, hex and underscore literals, single- and double-quoted strings.
# RUN: print
import pypto.language as pl  # trailing comment

SIZE = 0x10  # 16
BIG = 1_024


@pl.program  # comment after a decorator
class Layout:
    """A class docstring."""

    @pl.function(
        type=pl.FunctionType.AIV,  # comment inside the decorator
    )
    def f(
        self,  # self
        x: pl.Tensor[
            [SIZE, SIZE],  # shape
            pl.FP32,
        ],
        out: pl.Out[pl.Tensor[[SIZE, SIZE], pl.FP32]],
    ) -> pl.Tensor[[SIZE, SIZE], pl.FP32]:
        """A function docstring."""
        # a comment line

        t = pl.load(
            x,
            [0, 0],  # offsets
            [SIZE, SIZE],
        )
        u = pl.mul(t, \
                   2.0)
        ring = pl.system.reserve_buffer(name="a" 'b', size=BIG, base=pl.AUTO)
        out = pl.store(u, [0, 0], out,)  # trailing comma in a call
        return out

# CHECK: # pypto.program: Layout
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Layout:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def f(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16])
# CHECK:         u: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='ab', size=1024, base=pl.AUTO)
# CHECK:         out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(u, [0, 0], out)
# CHECK:         return out
