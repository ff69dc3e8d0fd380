# One kernel, two sizes: PyPTO compiles `scale` once with a dynamic row count N and the orchestration calls it
# (through an SPMD wrapper, as pypto-lib's printed programs do) with an [8, 64] and a [24, 64] tensor. cvsim
# gives a symbol one value per program, so the second call gets its own copy of the wrapper and of the kernel,
# N bound to 24 in both (the kernel's tile shape, written with N, follows). Before: E-TYPE at the second call.
# RUN: expand --v2c off
# CHECK: def scale(self, x: pl.Tensor[[8, 64], pl.FP32]
# CHECK: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64]
# CHECK: # cvsim: 'scale__N_24' is a per-call copy of 'scale'
# CHECK-NEXT: @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def scale__N_24(self, x: pl.Tensor[[24, 64], pl.FP32]
# CHECK: pl.Tile[[24, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [24, 64]
# CHECK: def scale_spmd__N_24(self, x: pl.Tensor[[24, 64], pl.FP32]
# CHECK-NEXT: self.scale__N_24(x, out)
# CHECK: self.scale_spmd(a, oa)
# CHECK-NEXT: self.scale_spmd__N_24(b, ob)
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class TwoSizes:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[N, 64], pl.FP32], out: pl.Out[pl.Tensor[[N, 64], pl.FP32]]) -> pl.Tensor[[N, 64], pl.FP32]:
        t: pl.Tile[[N, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [N, 64], [N, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[N, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        out = pl.tile.store(y, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def scale_spmd(self, x: pl.Tensor[[N, 64], pl.FP32], out: pl.Out[pl.Tensor[[N, 64], pl.FP32]]) -> pl.Tensor[[N, 64], pl.FP32]:
        r: pl.Tensor[[N, 64], pl.FP32] = self.scale(x, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8, 64], pl.FP32], b: pl.Tensor[[24, 64], pl.FP32], oa: pl.Out[pl.Tensor[[8, 64], pl.FP32]], ob: pl.Out[pl.Tensor[[24, 64], pl.FP32]]):
        ra: pl.Tensor[[N, 64], pl.FP32] = self.scale_spmd(a, oa)
        rb: pl.Tensor[[N, 64], pl.FP32] = self.scale_spmd(b, ob)
