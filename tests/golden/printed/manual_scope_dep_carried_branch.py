# A manual-scope loop carries a task id: iteration 0 yields its own launch's id, later iterations yield the carried
# one unchanged, so iterations 1 and 2 both wait for iteration 0 only and both write o: E-RACE-WAW between them.
# Before: PASS (the branch's value carried the ids of either arm, so the loop's launch counted as ordered after its
# previous iteration).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 26 'ka' (line 26) writes it and 'ka' writes it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def ka(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], io: pl.InOut[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        iv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(io, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, iv)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], io)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        r0: pl.Scalar[pl.INDEX] = 0
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            for i, (ct,) in pl.range(3, init_values=(inv,)):
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.ka, a, r0, o, deps=[ct])
                tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
                if i == 0:
                    n: pl.Scalar[pl.TASK_ID] = pl.yield_(tid0)
                else:
                    n: pl.Scalar[pl.TASK_ID] = pl.yield_(ct)
                ct_next: pl.Scalar[pl.TASK_ID] = pl.yield_(n)
        return o
