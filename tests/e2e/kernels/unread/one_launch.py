# A whole-model file: the orchestration launches only `good`; `bad` uses a tensor-level op in an InCore
# function (E-UNSUPPORTED while reading its body). `bad` is not read, `good` is checked (exit 0).
import pypto.language as pl


@pl.program
class Two:
    @pl.function(type=pl.FunctionType.InCore)
    def good(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def bad(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
        a0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.slice(a, [16, 64], [0, 0])
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r: pl.Tensor[[16, 64], pl.FP32] = self.good(a, out)
        return r
