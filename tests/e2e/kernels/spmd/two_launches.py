# Two launches in one `for b in pl.spmd(2)` body: each block runs `fill` (writing its half of t) then `use` (reading
# the other half), beside the other block, so block 1's `use` can read rows 0:16 of t while block 0's `fill` writes
# them: a race between the kernels (each kernel alone is race-free). cvsim checks
# each kernel on its own and used to check them as launches in program order (two PASSes, a false clean); now
# both are reported not checked (E-UNCHECKED naming the pl.spmd loop), never checked as if ordered.
# Test: tests/e2e/spmd_launch_test.cpp. two_loops.py launches the same kernels in two pl.spmd loops, one after the
# other: ordered, clean.
import pypto.language as pl


@pl.program
class SpmdTwo:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(x: pl.Tensor[[32, 64], pl.FP16], t: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        r: pl.Scalar[pl.INDEX] = (b % 2) * 16
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        t_1: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(y, [r, 0], t)
        return t_1

    @pl.function(type=pl.FunctionType.InCore)
    def use(t: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        r: pl.Scalar[pl.INDEX] = (b % 2) * 16
        o: pl.Scalar[pl.INDEX] = ((b + 1) % 2) * 16
        tv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(t, [o, 0], [16, 64])
        out_1: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(tv, [r, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        t: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.create([32, 64], dtype=pl.FP16)
        for b in pl.spmd(2):
            t1: pl.Tensor[[32, 64], pl.FP16] = self.fill(x, t)
            r: pl.Tensor[[32, 64], pl.FP16] = self.use(t1, out)
        return out
