# A V2C race only when the vector loop over N // 16 runs once: its last iteration stores the block it loaded,
# block N // 16 - 1 of scratch, and the cube then reads block 0 with no ordering (--v2c off). The last block is
# block 0 only at a trip count of 1 (16 <= N < 32); at the size cvsim defaults N to (128) it is block 7 and the
# kernel is clean.
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class RaceTripCountOne:
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
        for i in pl.range(N // 16):
            t = pl.load(a, [i * 16, 0], [16, 64])
            u = pl.add(t, t)
            if i == N // 16 - 1:
                scratch = pl.store(u, [i * 16, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
