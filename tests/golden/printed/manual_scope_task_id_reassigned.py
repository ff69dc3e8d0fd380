# Hand-written (not printed) code that assigns a task id twice: deps=[d] reads the first assignment, the task id of
# the launch that writes U, not the later one of the launch that writes T, whose rows the third launch reads
# (E-RACE-RAW). Before: PASS (deps= were read from the value's last assignment in the program). A value assigned by
# several statements now carries no task id cvsim relies on.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 28:13 's8' (line 24) writes it and 's8' reads it
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
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], T: pl.Out[pl.Tensor[[64, 64], pl.FP16]], U: pl.Out[pl.Tensor[[64, 64], pl.FP16]], V: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            r0: pl.Scalar[pl.INDEX] = 0
            ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, r0, T)
            ta: pl.Scalar[pl.TASK_ID] = ret0[1]
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, r0, U)
            d: pl.Scalar[pl.TASK_ID] = ret2[1]
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, T, r0, V, deps=[d])
            d: pl.Scalar[pl.TASK_ID] = ta
        return T
