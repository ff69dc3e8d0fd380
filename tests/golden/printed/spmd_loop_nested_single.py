# spmd_loop_nested_product.py's nested `pl.spmd(2)` loops in an orchestration that launches only that kernel (the
# single-launch path, not the host walk): 4 blocks, blocks 0 and 2 write the same rows (E-RACE-WAW); this path used
# the inner count, 2 blocks, a false PASS.
# RUN: check --schedules 5
# EXIT: 1
# CHECK: error[E-RACE-WAW]
import pypto.language as pl


@pl.program
class NestedSpmd:
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
        for a in pl.spmd(2):
            for b in pl.spmd(2):
                r: pl.Tensor[[32, 64], pl.FP16] = self.rows(x, out)
        return out
