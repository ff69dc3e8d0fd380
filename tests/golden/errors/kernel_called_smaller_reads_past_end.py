# A per-call copy does not hide a bug at one of the sizes: `head` loads a fixed [16, 64] window from
# x: [N, 64]; the first call passes 16 rows (N = 16), the second 8, so its copy `head__N_8` reads 8 rows past
# the end of its argument: E-OOB at the load, and the hint names the copy and the call it was made for.
# RUN: expand --v2c off
# ERROR: E-OOB 15:53 window [16, 64] does not fit tensor 'x' of shape [8, 64]
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class PastEnd:
    @pl.function(type=pl.FunctionType.InCore)
    def head(x: pl.Tensor[[N, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        out = pl.tile.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[8, 64], pl.FP32], oa: pl.Out[pl.Tensor[[16, 64], pl.FP32]], ob: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ra: pl.Tensor[[16, 64], pl.FP32] = self.head(a, oa)
        rb: pl.Tensor[[16, 64], pl.FP32] = self.head(b, ob)
