# A statement of a manual scope continues on a line indented less than the scope (inside its parentheses, where
# Python ignores indentation). The scope goes on after it: 'r' reads the scratch 'w' writes without deps=,
# E-RACE-RAW. Before: PASS (the scope's lines were read by indentation alone, so it ended at the continuation
# line and the two launches after it counted as AUTO, where the tensor map orders the reader).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 34 between launches in a manual scope
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
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            sc: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16,
    layout=pl.TensorLayout.ND)
            ret0: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.w, x, sc)
            s1: pl.Tensor[[16, 64], pl.FP16] = ret0[0]
            ret1: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.r, s1, out)
            o1: pl.Tensor[[16, 64], pl.FP16] = ret1[0]
        return o1
