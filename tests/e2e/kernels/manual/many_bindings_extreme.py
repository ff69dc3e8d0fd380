# A kernel launched 20 times with s = i * 7 % 20: only s = 19 loads past the tensor (rows 152..167 of 160). Of more
# than 8 distinct bindings cvsim checked the first, the last and evenly spaced ones (s = 0, 1, 15, 16, 17, 18,
# 12, 13): a wrong PASS. It now also checks the launch with each scalar's smallest and largest value: E-OOB.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(x: pl.Tensor[[160, 64], pl.FP16], s: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        v: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [s * 8, 0], [16, 64], target_memory=pl.Mem.Vec)
        o: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(v, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[160, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        for i, (acc,) in pl.range(20, init_values=(out,)):
            s: pl.Scalar[pl.INDEX] = i * 7 % 20
            o: pl.Tensor[[16, 64], pl.FP16] = self.copy(x, s, acc)
            r = pl.yield_(o)
        return r
