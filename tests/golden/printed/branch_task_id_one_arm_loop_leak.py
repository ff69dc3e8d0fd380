# In a loop, a branch yields its reader's id when i < n, else the carried id, and the loop carries it; the writer
# of s after the branch depends on the CARRIED id (the previous iteration's), not on this iteration's branch
# value: this iteration's reader and writer race (E-RACE-WAR). The reader's id, where it ran, must not leak into
# the next iteration as if it were that iteration's reader.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 32:13 'kw' (line 27) reads it and 'kw' writes it
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
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, s, deps=[c])
            c_next: pl.Scalar[pl.TASK_ID] = pl.yield_(m1)
        return o
