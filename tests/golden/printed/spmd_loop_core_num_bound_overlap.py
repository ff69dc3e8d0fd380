# spmd_loop_core_num_bound_apart.py with 'rd' reading rows 32..47: the 'wr' of iteration 3 (core_num=3, rows
# 0..47) overwrites rows the 'rd' of iterations 1 and 2 read, and the tensor map never orders a writer after a
# reader: E-RACE-WAR at 'wr'. (The width bound must keep the widest iteration's rows.)
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 33 at a later iteration of the loop at line 32
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(x: pl.Tensor[[16, 64], pl.FP32], base: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        u: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        xv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        r0: pl.Scalar[pl.INDEX] = base + u * 16
        o1: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(y, [r0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.AIV)
    def rd(src: pl.Tensor[[256, 64], pl.FP32], base: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        u: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        r0: pl.Scalar[pl.INDEX] = base + u * 16
        xv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [r0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(y, [r0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], a: pl.Out[pl.Tensor[[256, 64], pl.FP32]], b: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        for i in pl.range(1, 4):
            r0: pl.Tuple[pl.Tensor[[256, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.wr, x, 0, a, core_num=i)
            r1: pl.Tuple[pl.Tensor[[256, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.rd, a, 32, b, core_num=1)
        return a
