# `check --entry band` on a kernel the orchestration launches inside `for b in pl.spmd(4)`: the launch's 4 blocks
# run at once on the board, so the kernel is checked with 4 (with a note), not --blocks' default 1: every block
# writes all of `out`, a WAW race between clusters that one block cannot show (a false PASS, found by hunt3).
# RUN: check --entry band --schedules 3
# EXIT: 1
# CHECK: error[E-RACE-WAW]
import pypto.language as pl


@pl.program
class SpmdEntryWidth:
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
        for b in pl.spmd(4):
            r: pl.Tensor[[16, 64], pl.FP16] = self.band(x, out)
        return out
