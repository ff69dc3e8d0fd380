# An SPMD launch whose core count the orchestration computes (attrs={"core_num": cores}, cores from a
# pl.dynamic dim): read, printed back, and checked with --blocks (default 1; a note on stderr says so).
# Before: E-TYPE "attribute values must be constants or pl enum members".
# RUN: check --v2c fence --schedules 5
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class RuntimeCores:
    @pl.function(type=pl.FunctionType.InCore)
    def double(x: pl.Tensor[[N, 16, 64], pl.FP16], out: pl.Out[pl.Tensor[[N, 16, 64], pl.FP16]]) -> pl.Tensor[[N, 16, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [b, 0, 0], [1, 16, 64], [1, 16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        out = pl.tile.store(y, [b, 0, 0], out, [1, 16, 64])
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
