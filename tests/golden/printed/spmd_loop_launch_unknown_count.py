# A launch inside `for b in pl.spmd(nb)` with nb an unbound scalar of the orchestration: the host walk cannot
# know the block count, so the launch is not checked with one block (a false PASS, found by review); nb is
# sampled like any unbound control scalar and the race between blocks is found at nb=2.
# RUN: check --schedules 5
# EXIT: 1
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
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], nb: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16)
        t1: pl.Tensor[[16, 64], pl.FP16] = self.copy(x, t)
        for b in pl.spmd(nb):
            r: pl.Tensor[[16, 64], pl.FP16] = self.band(t1, out)
        return out
