# As auto_parallel_relative_loop.py (ob = 0, 2, 4), but the kernel stores rows of i in pl.range(ob, ob + 3): ob writes
# rows 16 * ob .. 16 * ob + 47, the next (ob + 2) from 16 * ob + 32: two OutputExisting writes of the same rows
# that nothing orders (E-RACE-WAW).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 25 at a later iteration of the loop at line 24
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(x: pl.Tensor[[128, 64], pl.FP16], ob: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[128, 64], pl.FP16]]) -> pl.Tensor[[128, 64], pl.FP16]:
        for i, (acc,) in pl.range(ob, ob + 3, init_values=(out,)):
            r: pl.Scalar[pl.INDEX] = i * 16
            xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [16, 64], target_memory=pl.Mem.Vec)
            y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
            o1: pl.Tensor[[128, 64], pl.FP16] = pl.tile.store(y, [r, 0], acc)
            acc_next: pl.Tensor[[128, 64], pl.FP16] = pl.yield_(o1)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[128, 64], pl.FP16], out: pl.Out[pl.Tensor[[128, 64], pl.FP16]]) -> pl.Tensor[[128, 64], pl.FP16]:
        for ob in pl.parallel(0, 6, 2):
            o1: pl.Tensor[[128, 64], pl.FP16] = self.rows(x, ob, out)
        return out
