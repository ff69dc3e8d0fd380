# A launch inside `for b in pl.spmd(8192)`: more blocks than cvsim launches (4096). It used to be checked with 4096
# blocks, silently; a launch with fewer blocks than the program's could miss races among the others, so the kernel
# is refused (E-UNSUPPORTED) in an orchestration that launches only it (spmd_loop_too_many_blocks.py: the host
# walk's E-UNCHECKED), never checked with another count (this path used to abort: explore workers died).
# RUN: check --schedules 2
# EXIT: 2
# ERROR: E-UNSUPPORTED 21:9 pl.spmd launches 8192 blocks
import pypto.language as pl


@pl.program
class TooWide:
    @pl.function(type=pl.FunctionType.InCore)
    def band(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        for b in pl.spmd(8192):
            r: pl.Tensor[[16, 64], pl.FP16] = self.band(x, out)
        return out
