# A pl.dynamic symbol no --dim and no shape binds is a guess (128). Here 128 makes the kernel read rows past
# its 16-row tensor: check also tries 64, 32, then 16, which stays in bounds, and gives the verdict at N=16
# (PASS) first, then the report at the guess (E-OOB), which still counts: exit 1 (a smaller size can hide what
# the guess found, so it never replaces it).
# RUN: check --schedules 3
# CHECK: [N=16]
# CHECK: PASS
# CHECK: error[E-OOB]
# EXIT: 1
# pypto.program: DimRetry
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class DimRetry:
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
