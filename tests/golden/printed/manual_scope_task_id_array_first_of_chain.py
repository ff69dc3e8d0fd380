# A manual scope: two launches of a loop write rows 8 * i of T, the second after the first (deps= of the carried task
# id), and store their task ids at element i of an array. The reader of rows 0..15 depends on element 0 only: the
# FIRST instance, which orders nothing about the second one, whose rows it reads (E-RACE-RAW). Before: PASS (an
# element of a filled array counted as the launch's last instance, which a chained launch runs after the others;
# found by an adversarial generator against an unrolling oracle). Element 1, the last, would order both.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 41:13 's8' (line 35) writes it and 's16' reads it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def s8(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def s16(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], A: pl.Out[pl.Tensor[[64, 64], pl.FP16]], T: pl.Out[pl.Tensor[[64, 64], pl.FP16]], U: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            arr1: pl.Array[2, pl.TASK_ID] = pl.array.create(2, dtype=pl.TASK_ID)
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            for i, (ca, c) in pl.range(2, init_values=(arr1, inv)):
                r: pl.Scalar[pl.INDEX] = i * 8
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, r, T, deps=[c])
                tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
                arr2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(ca, i, tid0)
                o1, o2 = pl.yield_(arr2, tid0)
            e0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(o1, 0)
            r0: pl.Scalar[pl.INDEX] = 0
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s16, T, r0, U, deps=[e0])
            tid1: pl.Scalar[pl.TASK_ID] = ret1[1]
        return A
