# Two defaulted symbols, as race_two_dims.py, but the kernel's need for N >= 64 shows only when it runs: the load's
# row N - 64 + 16 * i depends on the loop index, so N = 16 or 32 compiles and the nominal run falls outside `a`.
# All symbols at 16 (or 32) are then not a size the kernel takes, and M alone at 16 (N at its default) races: the
# vector stores rows [M - 16, M) of scratch, the cube reads rows [0, 16) (--v2c off).
import pypto.language as pl

N = pl.dynamic("N")
M = pl.dynamic("M")


@pl.program
class RaceTwoDimsRuntime:
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
        for i in pl.range(1):
            t = pl.load(a, [N - 64 + 16 * i, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [M - 16, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
