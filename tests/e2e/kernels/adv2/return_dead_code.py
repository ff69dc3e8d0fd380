# Statements after an unconditional `return` are unreachable (Python), yet the expander
# treats the dead vector store as a live access: under --v2c fence/syncall it places a
# barrier there (after the AIV's return) that the AIC waits on forever -> false E-DEADLOCK.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
        scratch = pl.store(t, [0, 0], scratch)
        return out
