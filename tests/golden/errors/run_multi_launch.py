# `run` executes one launch: an Orchestration entry that launches two kernels is E-ENTRY naming them (check and
# explore take each in turn; --entry picks one).
# RUN: run
# ERROR: E-ENTRY 25 launches 2 kernels (a, b)
import pypto.language as pl


@pl.program
class TwoLaunches:
    @pl.function(type=pl.FunctionType.InCore)
    def a(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def b(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        r: pl.Tensor[[16, 64], pl.FP16] = self.a(x, out)
        r2: pl.Tensor[[16, 64], pl.FP16] = self.b(x, out2)
        return r
