# Hand-written: the then arm assigns t (a task id of the writer), the else arm submits a reader with deps=[t]: on
# that path t is the value before the branch, task_invalid, and the reader races with the writer (E-RACE-RAW).
# Before: PASS (the else arm saw what the then arm assigned). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 44:17
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def wr(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def allrows(x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 3.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def rd(src: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], dst: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        sv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(src, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 2.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], dst)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, flag: pl.Scalar[pl.INDEX], x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], mid: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            r0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, 0, out)
            p0: pl.Scalar[pl.TASK_ID] = r0[1]
            for i0, (c0,) in pl.range(1, init_values=(inv,)):
                t: pl.Scalar[pl.TASK_ID] = pl.yield_(c0)
            if flag == 1:
                t: pl.Scalar[pl.TASK_ID] = p0
            else:
                rb: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.rd, out, 0, mid, deps=[t])
        return mid
