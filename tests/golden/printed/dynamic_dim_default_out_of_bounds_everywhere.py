# When no size down to 1 keeps the kernel in bounds (it reads row 16 of a 16-row tensor whatever N is), the
# out-of-bounds read is a bug, not a guess gone wrong: the report at the default size stands (E-OOB,
# exit 1) after the retries at 64 .. 1.
# RUN: check --schedules 3
# CHECK: FAIL
# CHECK: error[E-OOB]
# EXIT: 1
# pypto.program: DimRetryOob
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class DimRetryOob:
    @pl.function(type=pl.FunctionType.InCore)
    def k(n: pl.Scalar[pl.INDEX], lens: pl.Tensor[[N], pl.INT32], x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        for b, (o,) in pl.range(n, init_values=(out,)):
            t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [b + 16, 0], [1, 32], target_memory=pl.Mem.Vec)
            t2: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
            o2: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(t2, [b, 0], o)
            r: pl.Tensor[[16, 32], pl.FP32] = pl.yield_(o2)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, lens: pl.Tensor[[N], pl.INT32], x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        r: pl.Tensor[[16, 32], pl.FP32] = self.k(N, lens, x, out)
        return r
