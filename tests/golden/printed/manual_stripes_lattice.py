# Four branches (pl.parallel) each run a chain of 4 launches (pl.range, each step's deps= the previous step's
# task id) writing rows 256 * step + 64 * branch .. + 63 of 'out'. Launches of two different branches are never
# ordered, but their rows differ: 64 * (b - b') + 256 * (s - s') is never within 64 of 0 for b != b'. No single
# dimension's offset range shows it; cvsim tries every value of the two loops (docs/DECISIONS.md, "AUTO scopes
# order readers after writers only", windows apart). Clean. manual_stripes_lattice_overlap.py steps by 192 rows:
# branch 3 at step s overlaps branch 0 at step s + 1.
# RUN: check --schedules 2
# CHECK: [stripe
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
                    row: pl.Scalar[pl.INDEX] = s * 256 + b * 64
                    ret: pl.Tuple[pl.Tensor[[1024, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, row, out, deps=[tid])
                    t1: pl.Scalar[pl.TASK_ID] = ret[1]
                    tid_next: pl.Scalar[pl.TASK_ID] = pl.yield_(t1)
        return out
