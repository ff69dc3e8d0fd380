# As manual_scope_task_id_array_nested.py, plus a launch in the reader loop that reads rows 32 - 32 * g2 (the OTHER
# group's) after this iteration's reader only: the writers of the other group are unordered with it (E-RACE-RAW).
# Before: PASS (after every reader instance counted as after every writer, though it follows one reader). Found by
# a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 56:17
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
    def rd(src: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], dst: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        sv: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(src, [row, 0], [32, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 2.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], dst)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def allrows(x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 3.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], mid: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o3: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            tids0: pl.Array[8, pl.TASK_ID] = pl.array.create(8, dtype=pl.TASK_ID)
            for g, (t1,) in pl.parallel(2, init_values=(tids0,)):
                for n, (t2,) in pl.range(4, init_values=(t1,)):
                    r: pl.Scalar[pl.INDEX] = g * 32 + n * 8
                    ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, r, out)
                    tid: pl.Scalar[pl.TASK_ID] = ret0[1]
                    t3: pl.Array[8, pl.TASK_ID] = pl.array.update_element(t2, g * 4 + n, tid)
                    t2o: pl.Array[8, pl.TASK_ID] = pl.yield_(t3)
                t1o: pl.Array[8, pl.TASK_ID] = pl.yield_(t2o)
            rt0: pl.Array[2, pl.TASK_ID] = pl.array.create(2, dtype=pl.TASK_ID)
            for g2, (u1,) in pl.parallel(2, init_values=(rt0,)):
                d0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t1o, g2 * 4)
                d1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t1o, g2 * 4 + 1)
                d2: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t1o, g2 * 4 + 2)
                d3: pl.Scalar[pl.TASK_ID] = pl.array.get_element(t1o, g2 * 4 + 3)
                rr: pl.Scalar[pl.INDEX] = g2 * 32
                rr2: pl.Scalar[pl.INDEX] = 32 - g2 * 32
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.rd, out, rr, mid, deps=[d0, d1, d2, d3])
                rtid: pl.Scalar[pl.TASK_ID] = ret1[1]
                ret9: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.rd, out, rr2, o3, deps=[rtid])
                u2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(u1, g2, rtid)
                u1o: pl.Array[2, pl.TASK_ID] = pl.yield_(u2)
            e0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(u1o, 0)
            e1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(u1o, 1)
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.allrows, out, o2, deps=[e0, e1])
        return o2
