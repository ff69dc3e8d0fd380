# a vector atomic-add store and a cube atomic-add store into the same rows of out: atomic adds commute, so
# there is no hazard to order (the checker agrees); reject must not error (adversarial round 2).
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
        u = pl.cast(t, pl.FP32)
        out = pl.store(u, [0, 0], out, atomic=pl.AtomicType.Add)
        g = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
