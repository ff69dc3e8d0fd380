# A V2C race behind `if n == 5` (n unbound): the extra samples take each constant a condition compares with.
import pypto.language as pl


@pl.program
class S:
    @pl.function(type=pl.FunctionType.InCore)
    def m(
        self,
        a: pl.Tensor[[64, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        if n == 5:
            i = 2
            t = pl.load(a, [i * 16, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [i * 16, 0], scratch)
        g = pl.load(scratch, [32, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
