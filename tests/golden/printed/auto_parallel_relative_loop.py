# Each iteration of a pl.parallel loop over ob = 0, 2, 4, 6 launches a kernel that stores rows 16 * i for i in
# pl.range(ob, ob + 2) of 'out' (an Out argument the runtime does not look up: OutputExisting). The kernel's window
# is rows 16 * ob .. 16 * ob + 31, a loop from a scalar parameter with a constant trip count, so two iterations are
# shown apart. Clean. Before: the kernel's window was not bounded (its loop starts at a parameter) and the pair was
# a finding cvsim could not decide.
# RUN: check --schedules 2
# CHECK: [rows
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(x: pl.Tensor[[128, 64], pl.FP16], ob: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[128, 64], pl.FP16]]) -> pl.Tensor[[128, 64], pl.FP16]:
        for i, (acc,) in pl.range(ob, ob + 2, init_values=(out,)):
            r: pl.Scalar[pl.INDEX] = i * 16
            xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [16, 64], target_memory=pl.Mem.Vec)
            y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
            o1: pl.Tensor[[128, 64], pl.FP16] = pl.tile.store(y, [r, 0], acc)
            acc_next: pl.Tensor[[128, 64], pl.FP16] = pl.yield_(o1)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[128, 64], pl.FP16], out: pl.Out[pl.Tensor[[128, 64], pl.FP16]]) -> pl.Tensor[[128, 64], pl.FP16]:
        for ob in pl.parallel(0, 8, 2):
            o1: pl.Tensor[[128, 64], pl.FP16] = self.rows(x, ob, out)
        return out
