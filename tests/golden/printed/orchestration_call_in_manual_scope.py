# A caller's manual scope holds the launches of an Orchestration function called inside it: 'consume_all'
# launches 'r' (a plain call, no task id, no deps=) on the scratch 'w' writes just before, in the same manual
# scope: nothing orders them (E-RACE-RAW, reported at the call). Before: PASS.
# RUN: check --entry main --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 37 between launches in a manual scope
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def w(x: pl.Tensor[[16, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], s)
        return s1

    @pl.function(type=pl.FunctionType.InCore)
    def r(s: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def consume_all(self, s: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        o1: pl.Tensor[[16, 64], pl.FP16] = self.r(s, out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            ret0: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.w, x, scratch)
            s1: pl.Tensor[[16, 64], pl.FP16] = ret0[0]
            o: pl.Tensor[[16, 64], pl.FP16] = self.consume_all(s1, out)
        return o
