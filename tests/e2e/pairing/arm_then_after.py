# The first cube load after the vector store sits in one arm of a branch, with the author's barrier before it
# (so that pair is ordered); the load after the branch reads the same scratch and is ordered by nothing: every
# later load is a pair of its own unless an ordering placed for an earlier one runs before it on every path.
import pypto.language as pl


@pl.program
class ArmThenAfter:
    @pl.function(type=pl.FunctionType.InCore)
    def arm(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], n: pl.Scalar[pl.INDEX], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        if n == 0:
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
            g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            out = pl.store(z, [0, 0], out)
        g2 = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l2 = pl.move(g2, target_memory=pl.MemorySpace.Left)
        z2 = pl.matmul(l2, w_right)
        out = pl.store(z2, [16, 0], out)
        return out
