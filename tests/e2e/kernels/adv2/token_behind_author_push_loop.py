# the author's pushes on ring 0 in a loop, then a V2C store/load pair: no token on a shared ring (round 2).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        for i in pl.range(2):
            x = pl.load(a, [16, 0], [16, 64])
            x2 = pl.muls(x, 3.0)
            pl.tpush_to_aic(x2, split=0)
        scratch = pl.store(u, [0, 0], scratch)
        for j in pl.range(2):
            m: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)
            lm = pl.move(m, target_memory=pl.MemorySpace.Left)
            pl.tfree_to_aiv(m)
            zz = pl.matmul(lm, w_right)
            out = pl.store(zz, [16, 0], out)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
