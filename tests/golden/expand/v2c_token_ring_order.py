# Token pops keep the V2C ring FIFO: between the store of the scratch and the cube's load of it, one arm of
# a branch moves another tile to the cube (a V2C transport that runs only on block 0, so it does not
# order the dependency by itself). The token's pop goes before that loop, not right before the
# load: popped after the branch, it would receive the branch's tile, and the branch's pop the token.
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class RingOrder:
    @pl.function(type=pl.FunctionType.InCore)
    def ring_order(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        bi = pl.tile.get_block_idx()
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        for i in pl.range(2):
            if bi == 0:
                m = pl.move(t, target_memory=pl.MemorySpace.Mat)
                ml = pl.move(m, target_memory=pl.MemorySpace.Left)
                zb = pl.matmul(ml, w_right)
                out = pl.store(zb, [16, 0], out)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
# CHECK:     def ring_order_aic(
# CHECK:         _v2c_token: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NEXT:         pl.system.tfree_to_aiv(_v2c_token)
# CHECK-NEXT:         for i in pl.range(2):
# CHECK-NEXT:             if bi == 0:
# CHECK-NEXT:                 m: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NOT: tpop_from_aiv
# CHECK:         g: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:     def ring_order_aiv(
# CHECK:         scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(u, [0, 0], scratch)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(u, split=0)
# CHECK-NEXT:         for i in pl.range(2):
# CHECK-NEXT:             if bi == 0:
# CHECK-NEXT:                 pl.tile.tpush_to_aic(t, split=0)
