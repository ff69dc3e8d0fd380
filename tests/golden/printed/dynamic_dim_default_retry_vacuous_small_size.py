# Pairs of rows: iteration i of the loop over the N // 2 row pairs of x should read row 2*i + 1 but reads
# row 2*i + 2 (an off-by-one), so its last iteration reads row N of the N-row tensor x: out of bounds at
# EVERY size N >= 2. At N = 1 the loop runs zero times (1 // 2 == 0): that run trivially stays in bounds.
# A retry at a smaller defaulted size never replaces the report at the default (found by review): exit 1.
# RUN: check --schedules 3
# EXIT: 1
# CHECK: error[E-OOB]
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class Vacuous:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[N, 32], pl.FP32], out: pl.Out[pl.Tensor[[N, 32], pl.FP32]]) -> pl.Tensor[[N, 32], pl.FP32]:
        for i, (o,) in pl.range(N // 2, init_values=(out,)):
            t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [2 * i + 2, 0], [1, 32], target_memory=pl.Mem.Vec)
            t2: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
            o2: pl.Tensor[[N, 32], pl.FP32] = pl.tile.store(t2, [2 * i, 0], o)
            r: pl.Tensor[[N, 32], pl.FP32] = pl.yield_(o2)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N, 32], pl.FP32], out: pl.Out[pl.Tensor[[N, 32], pl.FP32]]) -> pl.Tensor[[N, 32], pl.FP32]:
        r: pl.Tensor[[N, 32], pl.FP32] = self.k(x, out)
        return r
