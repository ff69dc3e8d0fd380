# A kernel launched inside `for b in pl.spmd(2)` with `pl.tensor.slice(out, [16, 64], [b * 16, 0])`: each block
# writes its own rows of out (disjoint, clean on the board). cvsim bound the slice as one tensor for every block and
# reported a WAW race between the blocks (a false finding; with overlapping slices, [b * 8, 0], the same binding
# only happened to be right). One binding cannot hold each block's window: E-UNCHECKED naming the tensor.
# RUN: check --schedules 3
# ERROR: E-UNCHECKED 13:47 its tensor 't' is each block's own window
import pypto.language as pl


@pl.program
class Sp:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(x: pl.Tensor[[16, 64], pl.FP16], t: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        t_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], t)
        return t_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[48, 64], pl.FP16]]) -> pl.Tensor[[48, 64], pl.FP16]:
        for b in pl.spmd(2):
            v: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(out, [16, 64], [b * 16, 0])
            r: pl.Tensor[[16, 64], pl.FP16] = self.fill(x, v)
        return out
