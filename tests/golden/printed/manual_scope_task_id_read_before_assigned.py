# Hand-written: in each iteration the reader depends on t, which still holds the PREVIOUS iteration's writer when
# it reads it (t is assigned after the reader, and first named by a loop's result): the writer of this iteration's
# rows is unordered with the reader (E-RACE-RAW). Before: PASS (a later fixed-point round read the value the last
# round left). Found by a review of the task-id flow.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 45:17
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
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], mid: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o3: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            r0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.allrows, x, o3)
            p0: pl.Scalar[pl.TASK_ID] = r0[1]
            for i0, (c0,) in pl.range(1, init_values=(inv,)):
                t: pl.Scalar[pl.TASK_ID] = pl.yield_(c0)
            for i, (c,) in pl.range(4, init_values=(p0,)):
                r: pl.Scalar[pl.INDEX] = i * 8
                ra: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r, out)
                rb: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.rd, out, r, mid, deps=[t])
                t: pl.Scalar[pl.TASK_ID] = ra[1]
                ta: pl.Scalar[pl.TASK_ID] = rb[1]
                cn: pl.Scalar[pl.TASK_ID] = pl.yield_(ta)
        return mid
