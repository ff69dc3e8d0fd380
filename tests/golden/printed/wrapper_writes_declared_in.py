# An Spmd wrapper declares its parameter 's' In (as PyPTO's outliners may leave it after ExpandMixedKernel), but
# passes it to 'produce', which writes it: the runtime receives it as written (PyPTO's DeriveCallDirections
# merges the callee's direction into the wrapper's: MaterializeWrapperDirections). The second launch overwrites t
# after 'consume' read it, and nothing orders that write after the read (E-RACE-WAR). Before: the wrapper's
# declared direction was read, and t counted as read only.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 38 'consume' (line 37) reads it and 'produce_spmd' writes it
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

    @pl.function(type=pl.FunctionType.Spmd)
    def produce_spmd(self, x: pl.Tensor[[16, 64], pl.FP16], s: pl.Tensor[[16, 64], pl.FP16]) -> pl.Tensor[[16, 64], pl.FP16]:
        r: pl.Tensor[[16, 64], pl.FP16] = self.produce(x, s)
        return s

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        t1: pl.Tensor[[16, 64], pl.FP16] = self.produce_spmd(x, t)
        o1: pl.Tensor[[16, 64], pl.FP16] = self.consume(t1, out)
        t2: pl.Tensor[[16, 64], pl.FP16] = self.produce_spmd(x, t1)
        return o1
