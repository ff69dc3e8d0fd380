# The tail kernel of tail_kernel_at_sampled_size.py launched on two blocks that both write the same tail rows:
# the race exists only at sizes that launch the tail kernel (T = 8 among the sampled sizes), and is found there.
# It was E-UNCHECKED (exit 2, no race reported).
# RUN: check --schedules 5 --jobs 1
# EXIT: 1
# CHECK: [tail_rows T=8]
# CHECK: E-RACE-WAW
# CHECK: FAIL (the file)
import pypto.language as pl

T = pl.dynamic("T")


@pl.program
class TailRows:
    @pl.function(type=pl.FunctionType.InCore)
    def full_rows(x: pl.Tensor[[t_dim, 64], pl.FP32], out: pl.Out[pl.Tensor[[t_pad, 64], pl.FP32]]) -> pl.Tensor[[t_pad, 64], pl.FP32]:
        xv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        out_1: pl.Tensor[[t_pad, 64], pl.FP32] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def tail_rows(full: pl.Scalar[pl.INDEX], x: pl.Tensor[[t_dim, 64], pl.FP32], out: pl.InOut[pl.Tensor[[t_pad, 64], pl.FP32]]) -> pl.Tensor[[t_pad, 64], pl.FP32]:
        xv: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [full, 0], [8, 64])
        y: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        out_1: pl.Tensor[[t_pad, 64], pl.FP32] = pl.tile.store(y, [full, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[T, 64], pl.FP32]) -> pl.Tensor[[t_pad, 64], pl.FP32]:
        t_dim: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        full: pl.Scalar[pl.INDEX] = t_dim // 16 * 16
        t_pad: pl.Scalar[pl.INDEX] = (t_dim + 15) // 16 * 16
        buf: pl.Tensor[[t_pad, 64], pl.FP32] = pl.tensor.create([t_pad, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        if 0 < full:
            buf_1: pl.Tensor[[t_pad, 64], pl.FP32] = self.full_rows(x, buf)
            buf_2: pl.Tensor[[t_pad, 64], pl.FP32] = pl.yield_(buf_1)
        else:
            buf_2: pl.Tensor[[t_pad, 64], pl.FP32] = pl.yield_(buf)
        if full < t_dim:
            buf_3: pl.Tensor[[t_pad, 64], pl.FP32] = self.tail_rows(full, x, buf_2, attrs={"core_num": 2})
            buf_4: pl.Tensor[[t_pad, 64], pl.FP32] = pl.yield_(buf_3)
        else:
            buf_4: pl.Tensor[[t_pad, 64], pl.FP32] = pl.yield_(buf_2)
        return buf_4
