# AUTO scope, pl.parallel: 'kj' reads v and writes w; 'ky' reads w and writes v in every iteration, so each 'kj' looks
# up the previous iteration's 'ky', which ran after the previous 'kj': the writes of w are ordered. Clean (the racy
# twin, auto_back_edge_through_branch.py, runs 'ky' in a branch).
# RUN: check --schedules 2
# CHECK: [kj]
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kj(v: pl.Tensor[[16, 64], pl.FP16], w: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(v, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        u: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(u, [0, 0], w)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def ky(w: pl.Tensor[[16, 64], pl.FP16], v: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(w, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        u: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(t, 2.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(u, [0, 0], v)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, flag: pl.Scalar[pl.INDEX], v: pl.Out[pl.Tensor[[16, 64], pl.FP16]], w: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        for i in pl.parallel(3):
            w1: pl.Tensor[[16, 64], pl.FP16] = self.kj(v, w)
            v1: pl.Tensor[[16, 64], pl.FP16] = self.ky(w, v)
        return w
