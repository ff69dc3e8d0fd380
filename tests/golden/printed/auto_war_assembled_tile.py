# 'consume' reads buf; then 'produce' writes a tensor the orchestration created and assembles into buf. PyPTO's
# FuseCreateAssembleToSlice makes that tensor a slice of buf (a tensor created and assembled exactly once) and its
# codegen emits no copy for the assemble: 'produce' stores straight into buf, with an Out argument the runtime does
# not look up (its own buffer: OutputExisting). Nothing orders it after 'consume' (E-RACE-WAR). Before: the
# assembled tensor was a buffer of its own, so the launches shared nothing.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 34 'consume' (line 32) reads it and 'produce' writes it
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
    def consume(s: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [16, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[16, 64], pl.FP16], buf: pl.InOut[pl.Tensor[[32, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]
    ) -> pl.Tensor[[16, 64], pl.FP16]:
        o1: pl.Tensor[[16, 64], pl.FP16] = self.consume(buf, out)
        tile: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        tile1: pl.Tensor[[16, 64], pl.FP16] = self.produce(x, tile)
        buf1: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.assemble(buf, tile1, [16, 0])
        return o1
