# A V2C race only at n >= 3: iteration 2 of the vector loop writes rows 32..47, which the cube reads after the loop.
# Sampled at 1, 2 and 0 it was PASS at every value; the extra samples (3, and the largest of 64 .. 4 it takes) find it.
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
        for i in pl.range(n):
            t = pl.load(a, [i * 16, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [i * 16, 0], scratch)
        g = pl.load(scratch, [32, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
