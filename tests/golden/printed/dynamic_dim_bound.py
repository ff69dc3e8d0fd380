# A pl.dynamic symbol bound with --dim folds like a module constant (shapes, loop bounds, offsets): the kernel
# reads, expands and reaches a verdict; the expanded program prints the bound value.
# RUN: check --dim N=64
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class Dyn:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[N, 32], pl.FP32], out: pl.Out[pl.Tensor[[N, 32], pl.FP32]]) -> pl.Tensor[[N, 32], pl.FP32]:
        for i in pl.range(N // 16):
            t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [i * 16, 0], [16, 32])
            out_1: pl.Tensor[[N, 32], pl.FP32] = pl.tile.store(t, [i * 16, 0], out)
        return out
