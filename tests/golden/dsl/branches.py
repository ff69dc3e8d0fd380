# Conditionals: if/else with yields (one and two values), without yields, elif chains, boolean operators.
# RUN: print
import pypto.language as pl


@pl.program
class Branches:
    @pl.function(type=pl.FunctionType.AIV)
    def branches(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        if n == 0:
            y = pl.yield_(t)
        else:
            e = pl.exp(t)
            y = pl.yield_(e)
        if n > 1 and not (n >= 5) or n != 3:
            a, m = pl.yield_(y, n)
        else:
            a, m = pl.yield_(t, n + 1)
        if m < 2:
            out = pl.store(a, [0, 0], out)
        elif m <= 4:
            b = pl.neg(a)
            out = pl.store(b, [0, 0], out)
        else:
            pass
        return out

# CHECK: # pypto.program: Branches
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Branches:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def branches(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
# CHECK:         if n == 0:
# CHECK:             y: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(t)
# CHECK:         else:
# CHECK:             e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t)
# CHECK:             y: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(e)
# CHECK:         if n > 1 and not n >= 5 or n != 3:
# CHECK:             a, m = pl.yield_(y, n)
# CHECK:         else:
# CHECK:             a, m = pl.yield_(t, n + 1)
# CHECK:         if m < 2:
# CHECK:             out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(a, [0, 0], out)
# CHECK:         else:
# CHECK:             if m <= 4:
# CHECK:                 b: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.neg(a)
# CHECK:                 out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(b, [0, 0], out)
# CHECK:             else:
# CHECK:                 pass
# CHECK:         return out
