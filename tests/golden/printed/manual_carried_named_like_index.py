# Hand-written: a loop carries a value named j, the name of an earlier loop's index; the carried j is 4, so the two
# launches write the same rows (E-RACE-WAW). Before: PASS (the offset was taken as the other loop's index, 0..3,
# and shown apart). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 30:17
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
            four: pl.Scalar[pl.INDEX] = 4
            r32: pl.Scalar[pl.INDEX] = 32
            for j in pl.range(4):
                rj: pl.Scalar[pl.INDEX] = j * 8
                ret9: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, rj, S)
            for i, (j,) in pl.range(1, init_values=(four,)):
                r: pl.Scalar[pl.INDEX] = j * 8
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r, T)
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r32, T)
                jn: pl.Scalar[pl.INDEX] = pl.yield_(j)
        return T
# ERROR: E-RACE-WAW 26:17
