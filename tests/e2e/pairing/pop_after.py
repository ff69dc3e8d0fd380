# A hand-written tpush_to_aic after the store, but the cube's tpop_from_aiv is after the load: orders
# nothing.
import pypto.language as pl


@pl.program
class PopAfter:
    @pl.function(type=pl.FunctionType.InCore)
    def pa(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        pl.tpush_to_aic(u, split=0)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        m: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tpop_from_aiv(split=0)
        pl.tfree_to_aiv(m)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
