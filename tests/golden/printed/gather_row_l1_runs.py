# pl.tile.gather_row into an L1 (Mat) tile with a run-time valid_shape, as pypto-lib's sparse attention gathers
# KV rows before a matmul (before: E-UNSUPPORTED). Two runs of rows land in place in one L1 tile; the rest of
# the tile passes through. The simulator's run equals the reference. idx is given (every element 3: rows 3..7,
# then 19..29): a generated idx element that is 6 or 7 mod 8 would send the second run of 11 rows past the 32
# rows of src (an E-OOB, rightly), so the in-bounds case does not rest on which values a seed draws.
# RUN: run --input idx=3
# CHECK: outputs: equal to the reference (1 tensor, bit-exact)
# CHECK: findings: none
import pypto.language as pl


@pl.program
class GatherL1:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, src: pl.Tensor[[32, 16], pl.FP16], idx: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b + 5
        m0 = pl.tile.create([16, 16], dtype=pl.FP16, target_memory=pl.Mem.Mat)
        v0: pl.Scalar[pl.INT32] = pl.tensor.read(idx, [0])
        s0: pl.Scalar[pl.INDEX] = pl.cast(v0, pl.INDEX) % 8
        m1 = pl.tile.gather_row(m0, src, [0, 0], [s0, 0], [16, 16], valid_shape=[n, 16], transpose=False)
        v1: pl.Scalar[pl.INT32] = pl.tensor.read(idx, [1])
        s1: pl.Scalar[pl.INDEX] = 16 + pl.cast(v1, pl.INDEX) % 8
        m2 = pl.tile.gather_row(m1, src, [n, 0], [s1, 0], [16, 16], valid_shape=[16 - n, 16])
        l = pl.move(m2, target_memory=pl.Mem.Left)
        g = pl.load(src, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        r = pl.move(g, target_memory=pl.Mem.Right)
        z = pl.matmul(l, r)
        out = pl.store(z, [0, 0], out)
        return out
