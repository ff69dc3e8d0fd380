# Already ordered by an existing tile transport in the same direction: after its store the vector lane
# moves a tile to the cube (a V2C boundary, so a tpush_to_aic / tpop_from_aiv pair) before the cube loads
# the scratch. The pop already orders the load after the store: --v2c fence adds no token, only the
# vector-lane fence that publishes the store (the pop orders its completion, not its visibility).
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class Chain:
    @pl.function(type=pl.FunctionType.InCore)
    def chain(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        m = pl.move(t, target_memory=pl.MemorySpace.Mat)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        ml = pl.move(m, target_memory=pl.MemorySpace.Left)
        z2 = pl.matmul_acc(z, ml, w_right)
        out = pl.store(z2, [0, 0], out)
        return out
# CHECK:     def chain_aic(
# CHECK-NOT: _v2c_token
# CHECK:         m: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NEXT:         g: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:     def chain_aiv(
# CHECK:         scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(u, [0, 0], scratch)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.tile.tpush_to_aic(t, split=0)
# CHECK-NEXT:         return out
