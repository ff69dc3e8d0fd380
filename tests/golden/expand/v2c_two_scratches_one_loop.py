# Two V2C dependencies whose producer stores sit at the top level and whose cube loads share one loop:
# the second store's token is pushed after both stores and popped before the loop, so it orders both
# pairs; the first store's token (its interval holds the second's) is not added (property 4, issue 10).
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class TwoScratches:
    @pl.function(type=pl.FunctionType.InCore)
    def two(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s0: pl.Out[pl.Tensor[[16, 64], pl.FP16]], s1: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s0 = pl.store(u, [0, 0], s0)
        v = pl.mul(t, t)
        s1 = pl.store(v, [0, 0], s1)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            g0 = pl.load(s0, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l0 = pl.move(g0, target_memory=pl.MemorySpace.Left)
            z0 = pl.matmul(l0, w_right)
            g1 = pl.load(s1, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l1 = pl.move(g1, target_memory=pl.MemorySpace.Left)
            z1 = pl.matmul_acc(z0, l1, w_right)
            out = pl.store(z1, [i * 16, 0], out)
        return out
# CHECK:     def two_aic(
# CHECK:         _v2c_token_1: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NEXT:         pl.system.tfree_to_aiv(_v2c_token_1)
# CHECK-NEXT:         for i in pl.range(2):
# CHECK-NOT: tpop_from_aiv
# CHECK:             g0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(s0, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK-NOT: tpop_from_aiv
# CHECK:             g1: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(s1, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:     def two_aiv(
# CHECK:         s0: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(u, [0, 0], s0)
# CHECK-NOT: tpush_to_aic
# CHECK:         s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(v, [0, 0], s1)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(v, split=0)
