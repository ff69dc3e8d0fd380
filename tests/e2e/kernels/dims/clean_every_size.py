# Clean at every size it takes: the vector loads rows [N - 32, N - 16) of a and stores them at rows [N - 16, N)
# of scratch, the cube reads rows [0, 16) of scratch (--v2c off: nothing orders them). At N >= 32 the store and
# the read are disjoint; N = 16 and below put the load before row 0 (not a size the kernel takes). Sampling the
# sizes must keep its PASS and report nothing about the sizes it does not take.
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class CleanEverySize:
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
        t = pl.load(a, [N - 32, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [N - 16, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
