# A whole-model file where one kernel uses an op cvsim cannot model (pl.tile.random, E-UNSUPPORTED while its
# body is read): that kernel is not read and its launch is reported not checked with the op's diagnostic;
# the other launch is checked. Something was not checked, so the exit code is 2 (1 if a checked kernel has
# a finding).
# RUN: check --schedules 4
# EXIT: 2
# CHECK: [good]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNSUPPORTED 25:53 pl.tile.random
import pypto.language as pl


@pl.program
class Noise:
    @pl.function(type=pl.FunctionType.InCore)
    def good(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def bad(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        n: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.random(t)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.good(a, out)
        r2: pl.Tensor[[16, 64], pl.FP32] = self.bad(a, out2)
        return r
