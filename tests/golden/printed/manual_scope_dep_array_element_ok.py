# As manual_scope_dep_array_element.py, but the consumer of t names element 0 of the task-id array, the producer of
# t: clean.
# RUN: check --schedules 2
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kw(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        u: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r0: pl.Scalar[pl.INDEX] = 0
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            ids: pl.Array[2, pl.TASK_ID] = pl.array.create(2, pl.TASK_ID)
            ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, t)
            tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
            ids_1: pl.Array[2, pl.TASK_ID] = pl.array.update_element(ids, 0, tid0)
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, u)
            tid2: pl.Scalar[pl.TASK_ID] = ret2[1]
            ids_2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(ids_1, 1, tid2)
            e: pl.Scalar[pl.TASK_ID] = pl.array.get_element(ids_2, 0)
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, t, r0, o, deps=[e])
        return o
