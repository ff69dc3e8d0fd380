# Four producer stores into one scratch, one consumer load: one barrier covers them all.
import pypto.language as pl


@pl.program
class Group:
    @pl.function(type=pl.FunctionType.InCore)
    def grp(self, a: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[64, 64], pl.FP16]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t0 = pl.load(a, [0, 0], [16, 64])
        scratch = pl.store(pl.add(t0, t0), [0, 0], scratch)
        t1 = pl.load(a, [16, 0], [16, 64])
        scratch = pl.store(pl.add(t1, t1), [16, 0], scratch)
        t2 = pl.load(a, [32, 0], [16, 64])
        scratch = pl.store(pl.add(t2, t2), [32, 0], scratch)
        t3 = pl.load(a, [48, 0], [16, 64])
        scratch = pl.store(pl.add(t3, t3), [48, 0], scratch)
        g = pl.load(scratch, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
