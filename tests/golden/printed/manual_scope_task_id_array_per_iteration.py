# A manual scope: the loop stores each iteration's task id at element i of a task-id array (PyPTO's lowering of a
# list of task ids built in a loop), and the reader depends on elements 0..3, one per iteration: it runs after every
# stripe. Clean. manual_scope_task_id_array_partial.py names elements 0, 1, 2, 2: stripe 3 races.
# RUN: check --schedules 2
# CHECK: [allrows]
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def stripe(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def allrows(x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 2.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            tids0: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)
            for i, (tids,) in pl.parallel(4, init_values=(tids0,)):
                r: pl.Scalar[pl.INDEX] = i * 16
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, r, out)
                tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
                tids1: pl.Array[4, pl.TASK_ID] = pl.array.update_element(tids, i, tid0)
                tids_out: pl.Array[4, pl.TASK_ID] = pl.yield_(tids1)
            d0: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tids_out, 0)
            d1: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tids_out, 1)
            d2: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tids_out, 2)
            d3: pl.Scalar[pl.TASK_ID] = pl.array.get_element(tids_out, 3)
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.allrows, out, o2, deps=[d0, d1, d2, d3])
        return o2
