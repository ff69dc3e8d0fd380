# A kernel launched inside `for b in pl.spmd(4)` is one launch of 4 blocks that run at the same time, so check must
# check it with 4 blocks: here every block writes all of `out`, a WAW race between clusters (the host walk used
# to record it as 4 launches of 1 block each and check one block: a false PASS, found by review).
# RUN: check --schedules 3
# EXIT: 1
# CHECK: [band]
# CHECK: error[E-RACE-WAW]
import pypto.language as pl


@pl.program
class SpmdRace:
    @pl.function(type=pl.FunctionType.InCore)
    def band(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 3.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def copy(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16)
        t1: pl.Tensor[[16, 64], pl.FP16] = self.copy(x, t)
        for b in pl.spmd(4):
            r: pl.Tensor[[16, 64], pl.FP16] = self.band(t1, out)
        return out
