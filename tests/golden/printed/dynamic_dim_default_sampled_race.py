# A race only at a size smaller than the one cvsim defaulted (docs/DECISIONS.md, "Sizes cvsim defaulted are
# sampled"): the vector stores rows [N - 16, N) of scratch and the cube reads rows [0, 16) with nothing ordering
# them (--v2c off). At N=128 they are disjoint (this was "PASS"); at N=16 they are the same rows, and that is the
# verdict, labelled with the size and followed by a note that cvsim chose it.
# RUN: check --v2c off --schedules 5 --jobs 1
# CHECK: dynamic_dim_default_sampled_race.py [N=16]
# CHECK: error[E-RACE-RAW]: RAW on GM scratch[0:16, 0:64]
# CHECK: note: found with N=16, a size cvsim chose
# CHECK-NOT: PASS
# EXIT: 1
# pypto.program: SampledRace
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class SampledRace:
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
