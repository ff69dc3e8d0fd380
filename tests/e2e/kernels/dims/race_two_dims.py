# Two defaulted symbols: the kernel needs N >= 64 (it loads rows [N - 64, N) of a) and races only at M = 16 (the
# vector stores rows [M - 16, M) of scratch, the cube reads rows [0, 16); --v2c off). Both halved together never
# race (N = 16 does not fit the load, N = 64 comes with M = 64): only M = 16 with N at its default does.
import pypto.language as pl

N = pl.dynamic("N")
M = pl.dynamic("M")


@pl.program
class RaceTwoDims:
    @pl.function(type=pl.FunctionType.InCore)
    def m(
        self,
        a: pl.Tensor[[N, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[M, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        big = pl.load(a, [N - 64, 0], [64, 64])
        t = pl.slice(big, [16, 64], [48, 0])
        u = pl.add(t, t)
        scratch = pl.store(u, [M - 16, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
