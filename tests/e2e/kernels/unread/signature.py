# `bad` (E-UNSUPPORTED in its signature: a parameter default) is reached only through `wrap`, an InCore kernel that calls it: the
# launch of `wrap` is reported not checked with bad's diagnostic, `good` is checked (exit 2).
import pypto.language as pl


@pl.program
class Signature:
    @pl.function(type=pl.FunctionType.InCore)
    def good(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def bad(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], n: pl.Scalar[pl.INT32] = 4) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def wrap(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        out_1: pl.Tensor[[16, 64], pl.FP32] = self.bad(a, out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.good(a, out)
        r2: pl.Tensor[[16, 64], pl.FP32] = self.wrap(a, out2)
        return r
