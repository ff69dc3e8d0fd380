# Each iteration g of a pl.parallel loop launches an SPMD kernel (core_num from a run-time value) whose block u
# stores rows (u // 4) * 32 .. + 31 of the 64-column strip from d0 = (u % 4) * 64 of the columns g * 256 + n, n in pl.range(d0, d0 + 64, 32):
# whatever the block count, iteration g stores columns g * 256 .. g * 256 + 255 only (the shape of pypto-lib's
# decode O-B projection). The Out argument is OutputExisting (nothing orders the iterations), but the windows are
# apart: clean. Before: the loop starting at a value of the block index left the kernel's window unbounded and the
# pair was an E-RACE-WAW cvsim could not decide.
# RUN: check --schedules 2
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def cols(x: pl.Tensor[[32, 64], pl.FP32], g: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 1024], pl.FP32]]) -> pl.Tensor[[64, 1024], pl.FP32]:
        u: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        rb: pl.Scalar[pl.INDEX] = u // 4
        db: pl.Scalar[pl.INDEX] = u - rb * 4
        d0: pl.Scalar[pl.INDEX] = db * 64
        r0: pl.Scalar[pl.INDEX] = rb * 32
        for n, (acc,) in pl.range(d0, d0 + 64, 32, init_values=(out,)):
            xv: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
            y: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
            c: pl.Scalar[pl.INDEX] = g * 256 + n
            o1: pl.Tensor[[64, 1024], pl.FP32] = pl.tile.store(y, [r0, c], acc)
            acc_next: pl.Tensor[[64, 1024], pl.FP32] = pl.yield_(o1)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def cols_spmd(self, x: pl.Tensor[[32, 64], pl.FP32], g: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 1024], pl.FP32]]) -> pl.Tensor[[64, 1024], pl.FP32]:
        r: pl.Tensor[[64, 1024], pl.FP32] = self.cols(x, g, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 64], pl.FP32], t: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[64, 1024], pl.FP32]]) -> pl.Tensor[[64, 1024], pl.FP32]:
        rows: pl.Scalar[pl.INDEX] = (pl.cast(t, pl.INDEX) + 31) // 32
        for g, (o_iter,) in pl.parallel(4, init_values=(out,)):
            ret: pl.Tuple[pl.Tensor[[64, 1024], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.cols_spmd, x, g, o_iter, core_num=rows * 4)
            o2: pl.Tensor[[64, 1024], pl.FP32] = ret[0]
            o_next: pl.Tensor[[64, 1024], pl.FP32] = pl.yield_(o2)
        return out
