# As branch_task_id_one_arm_nested.py, but the outer then-arm yields the id from before the branches, not the
# inner branch's value: where the reader ran the writer is not after it (E-RACE-WAR).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 33:9 'kw' (line 25) reads it and 'kw' writes it
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
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], n: pl.Scalar[pl.INDEX], k: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        s: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r0: pl.Scalar[pl.INDEX] = 0
        p0: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[])
        if 0 < n:
            if 0 < k:
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, s, r0, o, deps=[p0])
                m0: pl.Scalar[pl.TASK_ID] = ret1[1]
                m1: pl.Scalar[pl.TASK_ID] = pl.yield_(m0)
            else:
                m1: pl.Scalar[pl.TASK_ID] = pl.yield_(p0)
            m2: pl.Scalar[pl.TASK_ID] = pl.yield_(p0)
        else:
            m2: pl.Scalar[pl.TASK_ID] = pl.yield_(p0)
        ret3: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, s, deps=[m2])
        return o
