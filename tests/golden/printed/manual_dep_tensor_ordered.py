# Launches sharing a tensor created with manual_dep=True (untracked by the runtime) that are ordered anyway: the
# second names the first's task id in deps=, the third reads a tracked tensor the first writes (the runtime's
# OverlapMap orders it after the first), as pypto-lib's expert_shared orders its manual_dep scale tensor. No finding
# (docs/DECISIONS.md, "Manual scopes").
# RUN: check --schedules 5
# CHECK: [produce]
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: E-RACE
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def produce(x: pl.Tensor[[16, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]], t: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> tuple[pl.Tensor[[16, 64], pl.FP16], pl.Tensor[[16, 64], pl.FP16]]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], s)
        t1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], t)
        return s1, t1

    @pl.function(type=pl.FunctionType.InCore)
    def consume(s: pl.Tensor[[16, 64], pl.FP16], t: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        tv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(t, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(sv, tv)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND, manual_dep=True)
        tracked: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        ret0: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.produce, x, scratch, tracked)
        tid0: pl.Scalar[pl.TASK_ID] = ret0[2]
        ret1: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.consume, scratch, x, out, deps=[tid0])
        ret2: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.consume, scratch, tracked, out2)
        return out
