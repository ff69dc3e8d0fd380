# An unconditional `return` in a loop body (the function ends in iteration 0) is kept on the
# AIV lane only; the AIC lane runs every iteration and waits for a V2C token the AIV never
# pushes -> E-DEADLOCK under --v2c fence/syncall on a kernel whose sequential meaning is fine.
# (With `if i == 1: return out` the return is kept on both lanes and the verdict is clean.)
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            t = pl.load(a, [0, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [0, 0], scratch)
            g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            if i == 0:
                out = pl.store(z, [i * 16, 0], out)
                return out
        return out
