# A manual-scope loop whose every iteration writes the same accumulator window with no deps= on the previous
# iteration's task id: the iterations' tasks may run at once (E-RACE-WAW at the launch, "at a later iteration").
# Variants in tests/e2e/manual_scope_test.cpp carry the task id (ordered) or give each iteration its own columns.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(x: pl.Tensor[[16, 64], pl.FP16], n0: pl.Scalar[pl.INDEX], acc: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        a1: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(xv, [0, 0], acc)
        return a1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        t0: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[])
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for i, (acc, prev) in pl.range(4, init_values=(out, t0)):
                n0: pl.Scalar[pl.INDEX] = 0
                ret: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.fill, x, n0, acc)
                acc2: pl.Tensor[[16, 256], pl.FP16] = ret[0]
                tid: pl.Scalar[pl.TASK_ID] = ret[1]
                r, rt = pl.yield_(acc2, tid)
        return r
