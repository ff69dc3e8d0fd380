# A V2C race only at N = 16: the vector stores the last 16 rows of scratch ([N - 16, N)) and the cube then
# reads its first 16 rows ([0, 16)) with no ordering between them (--v2c off). At the size cvsim defaults N to
# (128) the windows are disjoint and the kernel is clean; at N = 16 they are the same rows (docs/DECISIONS.md,
# "Sizes cvsim defaulted are sampled").
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class RaceAtN16:
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
        t = pl.load(a, [N - 16, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [N - 16, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
