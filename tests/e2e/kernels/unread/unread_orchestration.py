# An orchestration `sub` that main calls cannot be read (pl.tile.random): the kernels it would launch are
# unknown, so `sub` is reported as a launch not checked (exit 2), never dropped; good and bad (read here)
# are checked.
import pypto.language as pl


@pl.program
class SubOrch:
    @pl.function(type=pl.FunctionType.InCore)
    def good(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def bad(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def sub(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        n: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.random(a)
        r: pl.Tensor[[16, 64], pl.FP32] = self.bad(a, out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out3: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.good(a, out)
        r2: pl.Tensor[[16, 64], pl.FP32] = self.bad(a, out2)
        r3: pl.Tensor[[16, 64], pl.FP32] = self.sub(a, out3)
        return r
