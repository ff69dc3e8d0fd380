# A tail kernel the orchestration launches only when the row count T is not a multiple of 16, and a full-rows
# kernel launched only when T >= 16 whose 16-row window does not fit smaller T. The kernel types name the
# orchestration's scalars (t_dim, t_pad), as PyPTO prints them after inlining. At the size cvsim makes up for T
# (128) the tail kernel is not launched; at T = 8 (a sampled size, with t_pad computed as the program does: 16)
# it is, and is checked there. It was E-UNCHECKED (exit 2): t_pad was defaulted on its own and T = 8 did not
# compile because of the full-rows kernel's window.
# RUN: check --schedules 5 --jobs 1
# EXIT: 0
# CHECK: [full_rows]: 
# CHECK: PASS (the file): all 1 kernel verdict(s) clean
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
            buf_3: pl.Tensor[[t_pad, 64], pl.FP32] = self.tail_rows(full, x, buf_2, attrs={"core_num": 1})
            buf_4: pl.Tensor[[t_pad, 64], pl.FP32] = pl.yield_(buf_3)
        else:
            buf_4: pl.Tensor[[t_pad, 64], pl.FP32] = pl.yield_(buf_2)
        return buf_4
