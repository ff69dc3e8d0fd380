# A kernel whose scalar parameter the orchestration computes from GM data (pl.tensor.read of an input that no
# --input gives): the host walk runs again with that data sampled at 1, then 2, then 0, and the kernel is
# checked once per value it is launched with (labelled "sampled"); the other kernel is checked as usual. Was
# E-UNCHECKED before sampling (docs/DECISIONS.md, "Unbound control scalars are sampled").
# RUN: check --v2c fence --schedules 10
# CHECK: [scale]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [partial rows=1, sampled data of
# CHECK: PASS: no finding in any explored schedule
# CHECK: [partial rows=2, sampled data of
# CHECK: PASS: no finding in any explored schedule
# CHECK: [partial rows=0, sampled data of
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

T = pl.dynamic("T")


@pl.program
class Computed:
    @pl.function(type=pl.FunctionType.InCore)
    def partial(
        x: pl.Tensor[[16, 64], pl.FP16],
        rows: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
    ) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], valid_shape=[rows, 64])
        out = pl.tile.store(xv, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        out = pl.tile.store(y, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[T, 64], pl.FP16], nums: pl.Tensor[[2], pl.INT32], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        n: pl.Scalar[pl.INT32] = pl.tensor.read(nums, [1])
        x0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(x, [16, 64], [0, 0])
        r: pl.Tensor[[16, 64], pl.FP16] = self.partial(x0, n, out)
        r2: pl.Tensor[[16, 64], pl.FP16] = self.scale(x0, out2)
        return r
