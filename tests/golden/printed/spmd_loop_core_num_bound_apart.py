# Each iteration i of a sequential loop launches 'wr' on core_num=i blocks (block u stores rows 16 * u ..) and then
# 'rd' reading rows 48..63. The widest 'wr' (i = 3) stores rows 0..47: no later 'wr' touches what an earlier 'rd'
# read, so the write-after-read the tensor map leaves unordered cannot happen. PASS. Before: a false E-RACE-WAR
# ("cannot tell"): a core_num that is no constant was taken as any width. Now a core_num affine in loop indices
# of constant ranges is at most its largest value (docs/DECISIONS.md, "A core_num from loop indices bounds the
# blocks").
# RUN: check --schedules 2
# EXIT: 0
# CHECK: PASS (the file)
# CHECK-NOT: error[
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
            r1: pl.Tuple[pl.Tensor[[256, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.rd, a, 48, b, core_num=1)
        return a
