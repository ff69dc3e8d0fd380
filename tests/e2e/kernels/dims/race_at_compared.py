# A V2C race only when N == 48: behind `if N == 48` the vector stores the first 16 rows of scratch, which the
# cube then reads with no ordering (--v2c off). 48 is no halving of 128: only the value the comparison names (the
# sizes cvsim samples first) takes the branch.
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class RaceAtCompared:
    @pl.function(type=pl.FunctionType.InCore)
    def m(
        self,
        a: pl.Tensor[[N, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[N, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        if N == 48:
            t = pl.load(a, [0, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [0, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
