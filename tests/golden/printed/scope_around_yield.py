# PyPTO's printer may wrap a loop or branch body in `with pl.scope():` with the closing pl.yield_ inside
# the scope; the scope is transparent, so the yield still closes the loop / branch.
# RUN: print
# pypto.program: ScopeYield
import pypto.language as pl


@pl.program
class ScopeYield:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[16, 32], pl.FP32], flag: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
        for i, (acc,) in pl.range(2, init_values=(t0,)):
            with pl.scope():
                a: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(acc, pl.const(1.0, pl.FP32))
                acc_1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(a)
        if flag > 0:
            with pl.scope():
                r: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_1)
        else:
            r: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(t0)
        out_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(r, [0, 0], out)
        return out_1

# CHECK: # pypto.program: ScopeYield
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class ScopeYield:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def f(self, x: pl.Tensor[[16, 32], pl.FP32], flag: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
# CHECK:         t0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
# CHECK:         for i, (acc,) in pl.range(2, init_values=(t0,)):
# CHECK:             a: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(acc, pl.const(1.0, pl.FP32))
# CHECK:             acc_1: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(a)
# CHECK:         if flag > 0:
# CHECK:             r: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_1)
# CHECK:         else:
# CHECK:             r: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.yield_(t0)
# CHECK:         out_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(r, [0, 0], out)
# CHECK:         return out_1
