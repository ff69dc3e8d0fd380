# --dim is the user's word for the launch and is never overridden by a per-call copy: with --dim N=8 the call
# passing a [24, 64] tensor where [N, 64] is declared is E-TYPE at that call (without --dim it gets its own
# copy, printed/kernel_called_at_two_sizes.py).
# RUN: expand --v2c off --dim N=8
# ERROR: E-TYPE 22:54 argument 'x' of 'scale' is pl.Tensor[[8, 64], pl.FP32] but pl.Tensor[[24, 64], pl.FP32] was passed
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class DimGiven:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[N, 64], pl.FP32], out: pl.Out[pl.Tensor[[N, 64], pl.FP32]]) -> pl.Tensor[[N, 64], pl.FP32]:
        t: pl.Tile[[N, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [N, 64], [N, 64], target_memory=pl.Mem.Vec)
        out = pl.tile.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8, 64], pl.FP32], b: pl.Tensor[[24, 64], pl.FP32], oa: pl.Out[pl.Tensor[[8, 64], pl.FP32]], ob: pl.Out[pl.Tensor[[24, 64], pl.FP32]]):
        ra: pl.Tensor[[N, 64], pl.FP32] = self.scale(a, oa)
        rb: pl.Tensor[[N, 64], pl.FP32] = self.scale(b, ob)
