# the C2V mirror: an author push to the AIV on ring 0 before the cube store; --c2v complete must not token it.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        cs: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        g = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z0 = pl.matmul(l, w_right)
        pl.tpush_to_aiv(z0, split=0)
        z = pl.matmul(l, w_right)
        cs = pl.store(z, [0, 0], cs)
        v = pl.load(cs, [0, 0], [16, 64])
        v2 = pl.add(v, v)
        out = pl.store(v2, [0, 0], out)
        m: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
        m2 = pl.add(m, m)
        pl.tfree_to_aic(m)
        out = pl.store(m2, [16, 0], out)
        return out
