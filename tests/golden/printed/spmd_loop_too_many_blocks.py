# A launch inside `for b in pl.spmd(8192)`: more blocks than cvsim launches (4096). It used to be checked with 4096
# blocks, silently; a launch with fewer blocks than the program's could miss races among the others, so the kernel
# is reported not checked (E-UNCHECKED), never checked with another count. (A single-launch orchestration gets
# E-UNSUPPORTED: spmd_loop_too_many_blocks_single.py.)
# RUN: check --schedules 2
# EXIT: 2
# CHECK: [copy]
# CHECK: PASS
# ERROR: E-UNCHECKED 32:47 8192 blocks, and cvsim launches at most 4096
import pypto.language as pl


@pl.program
class TooWide:
    @pl.function(type=pl.FunctionType.InCore)
    def band(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def copy(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16)
        t1: pl.Tensor[[16, 64], pl.FP16] = self.copy(x, t)
        for b in pl.spmd(8192):
            r: pl.Tensor[[16, 64], pl.FP16] = self.band(t1, out)
        return out
