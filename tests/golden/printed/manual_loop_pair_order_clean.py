# A manual scope, two iterations: 'A' (the first launch, line 24) writes rows 16 * i + 40 of T, 'B' (line 27) reads rows 8 * i + 32 after this
# iteration's 'A' and the previous iteration's 'B'. B at i = 1 reads what A wrote at i = 0, after it (RAW ordered); no
# 'A' at a LATER iteration writes rows an earlier 'B' read. Clean. Before: E-RACE-WAR (two iterations' windows were
# compared in both orders; found by an adversarial generator). manual_loop_pair_order_race.py moves the rows so that
# A at i = 1 overwrites what B read at i = 0.
# RUN: check --schedules 2
# CHECK: [s8 row=40]
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def s8(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], T: pl.Out[pl.Tensor[[64, 64], pl.FP16]], U: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            inv: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
            for i, (c,) in pl.range(2, init_values=(inv,)):
                ra: pl.Scalar[pl.INDEX] = i * 16 + 40
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, x, ra, T)
                ta: pl.Scalar[pl.TASK_ID] = ret0[1]
                rb: pl.Scalar[pl.INDEX] = i * 8 + 32
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.s8, T, rb, U, deps=[ta, c])
                tb: pl.Scalar[pl.TASK_ID] = ret1[1]
                o: pl.Scalar[pl.TASK_ID] = pl.yield_(tb)
        return T
