# Kernel k does not use the pl.dynamic symbol N at all; only the orchestration's `lens` has shape [N].
# Launch k(0, ...) is in bounds; launch k(20, ...) reads row 20 of a 16-row tensor: E-OOB at every N.
# A retry at a smaller defaulted size never replaces the report at the default (found by review): exit 1.
# RUN: check --schedules 3
# EXIT: 1
# CHECK: error[E-OOB]
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class Unrelated:
    @pl.function(type=pl.FunctionType.InCore)
    def k(off: pl.Scalar[pl.INDEX], x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [off, 0], [1, 32], target_memory=pl.Mem.Vec)
        t2: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        o2: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(t2, [0, 0], out)
        return o2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, lens: pl.Tensor[[N], pl.INT32], x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        r: pl.Tensor[[16, 32], pl.FP32] = self.k(0, x, out)
        r2: pl.Tensor[[16, 32], pl.FP32] = self.k(20, x, out2)
        return r
