# In a loop, a branch yields its reader's id when i < n, else the carried id; the writer after the loop depends
# on the loop's result, the last iteration's value: a reader of an earlier iteration is not before it (another
# reader, or none, is what the last iteration yields), so the write races with it (E-RACE-WAR). The reader's id
# out of the branch ("where it ran") orders nothing out of the loop.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 33:9 'kw' (line 27) reads it and 'kw' writes it
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
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], n: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        s: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r0: pl.Scalar[pl.INDEX] = 0
        d0: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[])
        for i, (c,) in pl.range(3, init_values=(d0,)):
            if i < n:
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, s, r0, o)
                m0: pl.Scalar[pl.TASK_ID] = ret1[1]
                m1: pl.Scalar[pl.TASK_ID] = pl.yield_(m0)
            else:
                m1: pl.Scalar[pl.TASK_ID] = pl.yield_(c)
            c_next: pl.Scalar[pl.TASK_ID] = pl.yield_(m1)
        ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, s, deps=[c_next])
        return o
