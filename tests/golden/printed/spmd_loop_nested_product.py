# `for a in pl.spmd(2): for b in pl.spmd(2): self.k(...)`: every block of the outer launch runs the inner one's
# blocks, so the launch is 4 blocks. Block i writes rows (i % 2) * 16 of `out`: with 4 blocks, blocks 0 and 2 (1 and
# 3) write the same rows, a WAW race; the inner count alone (2 blocks) writes disjoint rows and was a false PASS
# (found by review). The product is launched, by the host walk of a multi-launch orchestration (here) and by the
# single-launch path (spmd_loop_nested_single.py).
# RUN: check --schedules 5
# EXIT: 1
# CHECK: [rows]
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

    @pl.function(type=pl.FunctionType.InCore)
    def copy(x: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        xv: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [32, 64])
        out_1: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        t: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.create([32, 64], dtype=pl.FP16)
        t1: pl.Tensor[[32, 64], pl.FP16] = self.copy(x, t)
        for a in pl.spmd(2):
            for b in pl.spmd(2):
                r: pl.Tensor[[32, 64], pl.FP16] = self.rows(t1, out)
        return out
