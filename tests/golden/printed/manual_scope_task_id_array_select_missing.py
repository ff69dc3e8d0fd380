# As manual_scope_task_id_array_select_mixed.py, but element 2 is never set: the reader at k = 2 reads the
# columns of the launch at line 35 and waits on nothing (E-RACE-RAW).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 50:17 'writer' (line 35) writes it and 'reader' reads it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def writer(x: pl.Tensor[[16, 256], pl.FP16], col: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        xv: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, col], [16, 32], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(y, [0, col], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def reader(x: pl.Tensor[[16, 256], pl.FP16], col: pl.Scalar[pl.INDEX], oc: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        xv: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, col], [16, 32], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 2.0)
        o1: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(y, [0, oc], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 256], pl.FP16], mid: pl.Out[pl.Tensor[[16, 256], pl.FP16]], o2: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            tids0: pl.Array[8, pl.TASK_ID] = pl.array.create(8, dtype=pl.TASK_ID)
            r0: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 0, mid)
            t0: pl.Scalar[pl.TASK_ID] = r0[1]
            tids1: pl.Array[8, pl.TASK_ID] = pl.array.update_element(tids0, 0, t0)
            r1: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 32, mid)
            t1: pl.Scalar[pl.TASK_ID] = r1[1]
            tids2: pl.Array[8, pl.TASK_ID] = pl.array.update_element(tids1, 1, t1)
            r2: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 64, mid)
            t2: pl.Scalar[pl.TASK_ID] = r2[1]
            r3: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 96, mid)
            t3: pl.Scalar[pl.TASK_ID] = r3[1]
            tids3: pl.Array[8, pl.TASK_ID] = pl.array.update_element(tids2, 3, t3)
            for i, (ta,) in pl.range(4, 8, init_values=(tids3,)):
                c: pl.Scalar[pl.INDEX] = i * 32
                rr: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, c, mid)
                tt: pl.Scalar[pl.TASK_ID] = rr[1]
                tb: pl.Array[8, pl.TASK_ID] = pl.array.update_element(ta, i, tt)
                tout: pl.Array[8, pl.TASK_ID] = pl.yield_(tb)
            for k in pl.range(8):
                col: pl.Scalar[pl.INDEX] = k * 32
                oc: pl.Scalar[pl.INDEX] = k * 32
                e9: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tout, k)
                ret1: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.reader, mid, col, oc, o2, deps=[e9])
        return o2
