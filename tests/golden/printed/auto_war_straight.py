# Straight-line AUTO launches: 'produce' writes t, 'consume' reads it, then 'produce' writes t again. The second
# 'produce' looks t up (an earlier launch wrote the same buffer: PyPTO makes its Out argument InOut) and finds the
# first 'produce', not 'consume': the reader and the overwrite are unordered (E-RACE-WAR at the overwrite).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 31 'consume' (line 30) reads it and 'produce' writes it, and 'produce' does not depend on 'consume'
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def produce(x: pl.Tensor[[16, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], s)
        return s1

    @pl.function(type=pl.FunctionType.InCore)
    def consume(s: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        t1: pl.Tensor[[16, 64], pl.FP16] = self.produce(x, t)
        o1: pl.Tensor[[16, 64], pl.FP16] = self.consume(t1, out)
        t2: pl.Tensor[[16, 64], pl.FP16] = self.produce(x, t1)
        return o1
