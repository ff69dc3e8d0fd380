# Two launches in a manual scope (pl.ScopeMode.MANUAL: the runtime tracks no tensor dependencies there): the
# second reads the scratch the first writes but its pl.submit has no deps=[tid0], so the runtime may run it first
# or at once: a race between the launches (E-RACE-RAW at the second launch, exit 1). Each kernel alone is clean.
# Before: PASS (cvsim ran the launches in program order, as if the scope were AUTO).
# RUN: check --schedules 5
# EXIT: 1
# CHECK: [produce]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [consume]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-RACE-RAW 38 'produce' (line 35) writes it and 'consume' reads it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def produce(x: pl.Tensor[[16, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], s)
        return s1

    @pl.function(type=pl.FunctionType.InCore)
    def consume(s: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            ret0: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.produce, x, scratch)
            s1: pl.Tensor[[16, 64], pl.FP16] = ret0[0]
            tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
            ret1: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.consume, s1, out)
            o1: pl.Tensor[[16, 64], pl.FP16] = ret1[0]
        return o1
