# One launch inside a loop inside `for b in pl.spmd(2)`: each block runs `fill` twice, so block 1's second `fill`
# can run beside block 0's first: launches of one kernel that one launch of 2 blocks does not model. Not checked
# (E-UNCHECKED), never checked as one launch. Test: tests/e2e/spmd_launch_test.cpp.
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
            for i in pl.range(2):
                t1: pl.Tensor[[32, 64], pl.FP16] = self.fill(x, t)
        return out
