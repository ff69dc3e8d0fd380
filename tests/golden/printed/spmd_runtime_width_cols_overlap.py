# As spmd_block_loop_cols_apart.py, but block u of iteration g stores the 32 columns from g * 64 + (u % 4) * 64:
# with the run-time width rows * 4 (at least 4 blocks), block 1 of iteration g stores the columns block 0 of
# iteration g + 1 stores: two OutputExisting writes nothing orders (E-RACE-WAW). Before: the launches' windows were
# taken at one block (the width of a check without --blocks), columns g * 64 .. g * 64 + 31, apart, and the file
# was clean although every width the program can launch races.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 38 at a later iteration of the loop at line 37
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
            c: pl.Scalar[pl.INDEX] = g * 64 + d0
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
