# Hand-written: two loops carry a value of the same name c (one variable to the parser); the second loop's carried
# value is not the first one's, and the first loop's launches, which write the same rows, are not ordered by it
# (E-RACE-WAW). Before: PASS (the carry tokens of the two loops were one). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 25:17
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def wr(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], T: pl.Out[pl.Tensor[[64, 64], pl.FP16]], S: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            r0: pl.Scalar[pl.INDEX] = 0
            for i, (c, d) in pl.range(4, init_values=(inv, inv)):
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r0, T, deps=[c])
                ta: pl.Scalar[pl.TASK_ID] = ret0[1]
                c1, d1 = pl.yield_(inv, ta)
            for k, (c,) in pl.range(2, init_values=(d1,)):
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r0, S, deps=[c])
                c2: pl.Scalar[pl.TASK_ID] = pl.yield_(c)
        return T
# ERROR: E-RACE-WAW 29:17
