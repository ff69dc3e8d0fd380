# In a manual scope the consumer's deps= names d, which is the producer's task id when flag > 0 and
# pl.system.task_invalid() otherwise: on the second path nothing orders the consumer after the producer, whose t it
# reads (E-RACE-RAW). Before: PASS (a branch's value carried the task ids of either arm; now only those both arms
# yield).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 31 'kw' (line 24) writes it and 'kw' reads it
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
        r0: pl.Scalar[pl.INDEX] = 0
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, a, r0, t)
            tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            if flag > 0:
                d: pl.Scalar[pl.TASK_ID] = pl.yield_(tid0)
            else:
                d: pl.Scalar[pl.TASK_ID] = pl.yield_(inv)
            ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, t, r0, o, deps=[d])
        return o
