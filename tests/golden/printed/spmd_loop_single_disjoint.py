# The counter-check of spmd_loop_nested_product.py: the same kernel launched inside one `pl.spmd(2)` writes
# disjoint rows per block, so it is clean (the nested golden's race comes from the product of the counts, not from
# the kernel).
# RUN: check --schedules 5
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class SingleSpmd:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(x: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        r: pl.Scalar[pl.INDEX] = (b % 2) * 16
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 3.0)
        out_1: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(y, [r, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        for b in pl.spmd(2):
            r: pl.Tensor[[32, 64], pl.FP16] = self.rows(x, out)
        return out
