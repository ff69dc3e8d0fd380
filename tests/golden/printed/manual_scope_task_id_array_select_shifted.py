# As manual_scope_task_id_array_select.py, but the reader at k waits on element (k + 1) % 4: the writer of the
# columns it reads is another element's, nothing orders it (E-RACE-RAW).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 68:17 'writer' (line 31) writes it and 'reader' reads it
# CHECK: FAIL (the file): 1 race diagnostic(s) (error[...] above), 0 of 8 kernel verdict(s) with findings; exit 1
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def writer(x: pl.Tensor[[16, 256], pl.FP16], col: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, col], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(y, [0, col], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def reader(x: pl.Tensor[[16, 256], pl.FP16], col: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, col], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 2.0)
        o1: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(y, [0, col], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 256], pl.FP16], mid: pl.Out[pl.Tensor[[16, 256], pl.FP16]], o2: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            cast0: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)
            late0: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)
            r0: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 0, mid)
            t0: pl.Scalar[pl.TASK_ID] = r0[1]
            cast1: pl.Array[4, pl.TASK_ID] = pl.array.update_element(cast0, 0, t0)
            r1: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 64, mid)
            t1: pl.Scalar[pl.TASK_ID] = r1[1]
            cast2: pl.Array[4, pl.TASK_ID] = pl.array.update_element(cast1, 1, t1)
            r2: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 128, mid)
            t2: pl.Scalar[pl.TASK_ID] = r2[1]
            cast3: pl.Array[4, pl.TASK_ID] = pl.array.update_element(cast2, 2, t2)
            r3: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.writer, x, 192, mid)
            t3: pl.Scalar[pl.TASK_ID] = r3[1]
            cast4: pl.Array[4, pl.TASK_ID] = pl.array.update_element(cast3, 3, t3)
            b0: pl.Array[1, pl.TASK_ID] = pl.array.create(1, dtype=pl.TASK_ID)
            e0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(cast4, 0)
            b1: pl.Array[1, pl.TASK_ID] = pl.array.update_element(b0, 0, e0)
            d0: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[b1])
            late1: pl.Array[4, pl.TASK_ID] = pl.array.update_element(late0, 0, d0)
            c0: pl.Array[1, pl.TASK_ID] = pl.array.create(1, dtype=pl.TASK_ID)
            e1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(cast4, 1)
            c1: pl.Array[1, pl.TASK_ID] = pl.array.update_element(c0, 0, e1)
            d1: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[c1])
            late2: pl.Array[4, pl.TASK_ID] = pl.array.update_element(late1, 1, d1)
            f0: pl.Array[1, pl.TASK_ID] = pl.array.create(1, dtype=pl.TASK_ID)
            e2: pl.Scalar[pl.TASK_ID] = pl.array.get_element(cast4, 2)
            f1: pl.Array[1, pl.TASK_ID] = pl.array.update_element(f0, 0, e2)
            d2: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[f1])
            late3: pl.Array[4, pl.TASK_ID] = pl.array.update_element(late2, 2, d2)
            g0: pl.Array[1, pl.TASK_ID] = pl.array.create(1, dtype=pl.TASK_ID)
            e3: pl.Scalar[pl.TASK_ID] = pl.array.get_element(cast4, 3)
            g1: pl.Array[1, pl.TASK_ID] = pl.array.update_element(g0, 0, e3)
            d3: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[g1])
            late4: pl.Array[4, pl.TASK_ID] = pl.array.update_element(late3, 3, d3)
            for k in pl.range(4):
                col: pl.Scalar[pl.INDEX] = k * 64
                h0: pl.Array[1, pl.TASK_ID] = pl.array.create(1, dtype=pl.TASK_ID)
                e9: pl.Scalar[pl.TASK_ID] = pl.array.get_element(late4, (k + 1) % 4)
                h1: pl.Array[1, pl.TASK_ID] = pl.array.update_element(h0, 0, e9)
                ret1: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.reader, mid, col, o2, deps=[h1])
        return o2
