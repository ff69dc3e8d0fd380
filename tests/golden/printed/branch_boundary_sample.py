# An orchestration that launches one kernel or another depending on an entry scalar no --input gives
# (`if mode < 3`, as pypto-lib's gate launches its hash router for the first layers and its sort router after):
# the samples 1, 2, 0 and the ascending ones all take the first arm, so the second kernel was E-UNCHECKED. The
# walk now also samples the constants the orchestration's branch conditions compare with (3, then 4) until it is
# launched: it is checked at mode=3, labelled sampled (docs/DECISIONS.md, "Branch boundaries are sampled").
# RUN: check --v2c fence --schedules 5
# CHECK: [low
# CHECK: PASS: no finding in any explored schedule
# CHECK: [high rows=16, sampled mode=3]
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class BranchBoundary:
    @pl.function(type=pl.FunctionType.InCore)
    def low(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def high(x: pl.Tensor[[16, 64], pl.FP16], rows: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], valid_shape=[rows, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], mode: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        if mode < 3:
            r: pl.Tensor[[16, 64], pl.FP16] = self.low(x, out)
        else:
            r2: pl.Tensor[[16, 64], pl.FP16] = self.high(x, pl.cast(mode, pl.INDEX) * 4 + 4, out)
        return out
