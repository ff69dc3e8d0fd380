# A run-time core count at a launch is kept and printed back as the expression it is.
# RUN: expand --v2c off
# CHECK: attrs={'core_num': cores})
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class RuntimeCoresPrint:
    @pl.function(type=pl.FunctionType.InCore)
    def double(x: pl.Tensor[[N, 16, 64], pl.FP16], out: pl.Out[pl.Tensor[[N, 16, 64], pl.FP16]]) -> pl.Tensor[[N, 16, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [b, 0, 0], [1, 16, 64], [1, 16, 64], target_memory=pl.Mem.Vec)
        out = pl.tile.store(xv, [b, 0, 0], out, [1, 16, 64])
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def double_spmd(self, x: pl.Tensor[[N, 16, 64], pl.FP16], out: pl.Out[pl.Tensor[[N, 16, 64], pl.FP16]]) -> pl.Tensor[[N, 16, 64], pl.FP16]:
        r: pl.Tensor[[N, 16, 64], pl.FP16] = self.double(x, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N, 16, 64], pl.FP16], out: pl.Out[pl.Tensor[[N, 16, 64], pl.FP16]]) -> pl.Tensor[[N, 16, 64], pl.FP16]:
        cores: pl.Scalar[pl.INDEX] = N // 2 + 1
        r: pl.Tensor[[N, 16, 64], pl.FP16] = self.double_spmd(x, out, attrs={"core_num": cores})
        return r
