# Hand-written: a row offset r is a parameter that one branch arm sets to 0; on the other path it may be 32, the rows
# the other launch writes (E-RACE-WAW). Before: PASS (the windows were shown apart with r = 0). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 25:13
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
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], r: pl.Scalar[pl.INDEX], flag: pl.Scalar[pl.INDEX], T: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            if flag == 1:
                r: pl.Scalar[pl.INDEX] = 0
            r1: pl.Scalar[pl.INDEX] = 32
            ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, r, T)
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, r1, T)
        return T
