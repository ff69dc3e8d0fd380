# Hand-written: a loop's bound is a parameter n that one branch arm sets to 0. On the other path n is the caller's
# value and the loop's launches, which write the same rows with no deps=, race (E-RACE-WAW). Before: PASS (the
# assignment was taken as n's only value: a loop that never runs). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 26:17
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def s8(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], n: pl.Scalar[pl.INDEX], flag: pl.Scalar[pl.INDEX], T: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            r0: pl.Scalar[pl.INDEX] = 0
            if flag == 1:
                n: pl.Scalar[pl.INDEX] = 0
            for i in pl.range(n):
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, r0, T)
        return T
