# SPEC 5 step 4 with aliases: the tfree of a popped tile follows the last read of the tile or of anything
# sharing its storage -- here a reshape view, a branch result yielding the view, and a loop-carried value
# initialised with it (on a5 the popped tile is the ring slot until the free). The free used to follow
# the reshape, the last *direct* use of zv.
# RUN: expand --target a5
import pypto.language as pl


@pl.program
class TfreeViews:
    @pl.function(type=pl.FunctionType.InCore)
    def tv(self, x: pl.Tensor[[32, 32], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        r = pl.reshape(zv, [64, 16])
        if n == 0:
            a = pl.yield_(r)
        else:
            b = pl.add(r, r)
            a = pl.yield_(b)
        for j, (c,) in pl.range(2, init_values=(a,)):
            c2 = pl.add(c, c)
            c_out = pl.yield_(c2)
        v = pl.reshape(c_out, [32, 32])
        out = pl.store(v, [0, 0], out)
        return out

# CHECK:     def tv_aiv(
# CHECK:         zv: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
# CHECK-NEXT:         r: pl.Tile[[64, 16], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(zv, [64, 16])
# CHECK-NOT: tfree_to_aic
# CHECK:         for j, (c,) in pl.range(2, init_values=(a,)):
# CHECK-NOT: tfree_to_aic
# CHECK:         v: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(c_out, [32, 32])
# CHECK-NEXT:         out: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(v, [0, 0], out)
# CHECK-NEXT:         pl.system.tfree_to_aic(zv)
# CHECK-NEXT:         return out
