# Hand-written: the task id is stored at element n only when n < 2, so elements 2 and 3 stay task_invalid and the
# reader of all rows races with writers 2 and 3 (E-RACE-RAW). Before: PASS (the update in a branch arm was taken as
# a fill of every iteration). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 48:13
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
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            tids0: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)
            for n, (t2,) in pl.range(4, init_values=(tids0,)):
                r: pl.Scalar[pl.INDEX] = n * 8
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r, out)
                tid: pl.Scalar[pl.TASK_ID] = ret0[1]
                if n < 2:
                    t3: pl.Array[4, pl.TASK_ID] = pl.array.update_element(t2, n, tid)
                t2o: pl.Array[4, pl.TASK_ID] = pl.yield_(t3)
            e0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t2o, 0)
            e1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t2o, 1)
            e2: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t2o, 2)
            e3: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t2o, 3)
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.allrows, out, o2, deps=[e0, e1, e2, e3])
        return o2
