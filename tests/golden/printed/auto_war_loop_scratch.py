# An AUTO-scope orchestration reuses one scratch tensor in every iteration: 'produce' writes it, 'consume' reads
# it. The runtime's tensor map orders 'consume' after 'produce' (a reader after the writer it looks up) and the
# next 'produce' after the previous one (its Out argument is InOut in a sequential loop), but never the next
# 'produce' after the previous 'consume': simpler orders no write-after-read (docs/war-anti-dependency.md), so the
# overwrite may start while the read still runs (docs/DECISIONS.md, "AUTO scopes order readers after writers
# only"). Before: PASS (two AUTO launches sharing a tracked tensor were taken as ordered both ways).
# RUN: check --schedules 2
# EXIT: 1
# CHECK: [produce]
# CHECK: [consume]
# ERROR: E-RACE-WAR 35 'consume' (line 36) reads it and 'produce' writes it at a later iteration
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
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        for i in pl.range(4):
            s1: pl.Tensor[[16, 64], pl.FP16] = self.produce(x, scratch)
            o1: pl.Tensor[[16, 64], pl.FP16] = self.consume(s1, out)
        return out
