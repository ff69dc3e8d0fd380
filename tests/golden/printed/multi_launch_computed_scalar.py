# A kernel whose scalar parameter the orchestration computes from GM data (pl.tensor.read of an input): the
# host walk knows that value only from --input NUMS=FILE.npy, and any value it picked (0 rows here would
# access nothing) could make a clean verdict vacuous, so that kernel is not checked (E-UNCHECKED at the
# parameter, naming the read, exit 2) while the other one is.
# RUN: check --v2c fence --schedules 10
# CHECK: [scale]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNCHECKED 19 is read from the data of 'nums' (line 35: pl.tensor.read); give that data with --input nums=FILE.npy
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
