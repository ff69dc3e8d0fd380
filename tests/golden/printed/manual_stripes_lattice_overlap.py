# As manual_stripes_lattice.py, but each step moves 192 rows: branch 3 at step s writes the rows branch 0
# writes at step s + 1, and nothing orders two branches' launches (E-RACE-WAW).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 26 at a later iteration of the loop at line 22
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def stripe(x: pl.Tensor[[1024, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[1024, 64], pl.FP16]]) -> pl.Tensor[[1024, 64], pl.FP16]:
        xv: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [64, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[1024, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1024, 64], pl.FP16], out: pl.Out[pl.Tensor[[1024, 64], pl.FP16]]) -> pl.Tensor[[1024, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for b in pl.parallel(4):
                prev: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
                for s, (tid,) in pl.range(4, init_values=(prev,)):
                    row: pl.Scalar[pl.INDEX] = s * 192 + b * 64
                    ret: pl.Tuple[pl.Tensor[[1024, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, row, out, deps=[tid])
                    t1: pl.Scalar[pl.TASK_ID] = ret[1]
                    tid_next: pl.Scalar[pl.TASK_ID] = pl.yield_(t1)
        return out
