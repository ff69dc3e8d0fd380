# AUTO scope, pl.parallel: 'kj' reads v and writes w (an Out argument the runtime does not look up); when flag == 1
# 'ky' reads w (so it runs after this iteration's 'kj') and writes v, which the next iteration's 'kj' looks up. When
# flag != 1, 'ky' never runs and nothing orders one iteration's 'kj' after the previous one's: both write w
# (E-RACE-WAW). Before: PASS (the order through 'ky' across iterations was taken on every path).
# auto_back_edge_every_iteration.py runs 'ky' in every iteration: clean.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 31:13 'kj' (line 31) writes it and 'kj' writes it at a later iteration
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
            if flag == 1:
                v1: pl.Tensor[[16, 64], pl.FP16] = self.ky(w, v)
        return w
