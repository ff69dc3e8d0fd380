# The retry of a size cvsim defaulted keeps the verdict honest: at N=16 (the largest size the kernel takes) two
# blocks (--blocks 2) each write every row of `out`, a WAW race between clusters that must be reported at
# that size (a retry that dropped findings would hide it).
# RUN: check --schedules 3 --blocks 2
# CHECK: [N=16]
# CHECK: error[E-RACE-WAW]
# EXIT: 1
# pypto.program: DimRetryRace
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class DimRetryRace:
    @pl.function(type=pl.FunctionType.InCore)
    def k(n: pl.Scalar[pl.INDEX], lens: pl.Tensor[[N], pl.INT32], x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        for b, (o,) in pl.range(n, init_values=(out,)):
            t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [b, 0], [1, 32], target_memory=pl.Mem.Vec)
            t2: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
            o2: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(t2, [b, 0], o)
            r: pl.Tensor[[16, 32], pl.FP32] = pl.yield_(o2)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, lens: pl.Tensor[[N], pl.INT32], x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        r: pl.Tensor[[16, 32], pl.FP32] = self.k(N, lens, x, out)
        return r
