# Loops: pl.range with one, two and three bounds, pl.parallel, pl.unroll, init_values as a tuple or a
# list, one or several carried values, nested loops with init_values, names re-bound in a plain loop.
# RUN: print
import pypto.language as pl

N = 4


@pl.program
class Loops:
    @pl.function(type=pl.FunctionType.AIV)
    def loops(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        k = pl.const(0, pl.INT32)
        for i, (acc,) in pl.range(N, init_values=(t,)):
            nxt = pl.add(acc, t)
            acc_out = pl.yield_(nxt)
        for i2, (a, cnt) in pl.range(1, N, init_values=[acc_out, k]):
            for j, (inner,) in pl.range(0, 8, 2, init_values=(a,)):
                inner2 = pl.mul(inner, 0.5)
                inner_out = pl.yield_(inner2)
            cnt2 = cnt + 1
            a_out, cnt_out = pl.yield_(inner_out, cnt2)
        for p in pl.parallel(2):
            out = pl.store(a_out, [0, 0], out)
        for u in pl.unroll(0, 2):
            r = pl.relu(a_out)
            out = pl.store(r, [0, 0], out)
        return out

# CHECK: # pypto.program: Loops
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Loops:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def loops(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
# CHECK:         k: pl.Scalar[pl.INT32] = pl.const(0, pl.INT32)
# CHECK:         for i, (acc,) in pl.range(4, init_values=(t,)):
# CHECK:             nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
# CHECK:             acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
# CHECK:         for i2, (a, cnt) in pl.range(1, 4, init_values=(acc_out, k)):
# CHECK:             for j, (inner,) in pl.range(0, 8, 2, init_values=(a,)):
# CHECK:                 inner2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(inner, 0.5)
# CHECK:                 inner_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(inner2)
# CHECK:             cnt2: pl.Scalar[pl.INDEX] = cnt + 1
# CHECK:             a_out, cnt_out = pl.yield_(inner_out, cnt2)
# CHECK:         for p in pl.parallel(2):
# CHECK:             out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(a_out, [0, 0], out)
# CHECK:         for u in pl.unroll(0, 2):
# CHECK:             r: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.relu(a_out)
# CHECK:             out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(r, [0, 0], out)
# CHECK:         return out
