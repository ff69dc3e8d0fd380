# A launch inside `for b in pl.spmd(4)` that passes the block index `b` as a scalar: each block has its own
# value, which a launch of 4 blocks with one binding cannot express, so check says the kernel is not checked
# (E-UNCHECKED naming the pl.spmd launch) instead of checking one block's value for all blocks.
# RUN: check --schedules 3
# ERROR: E-UNCHECKED 12:93 the block index of the pl.spmd launch
import pypto.language as pl


@pl.program
class SpmdRace:
    @pl.function(type=pl.FunctionType.InCore)
    def band_at(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], row: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[4, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row * 4, 0], [4, 64])
        y: pl.Tile[[4, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 3.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [row * 4, 0], out)
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
            r: pl.Tensor[[16, 64], pl.FP16] = self.band_at(t1, out, b)
        return out
