# --dim naming no pl.dynamic symbol of the program is E-NAME (never silently ignored).
# RUN: check --dim M=64
# ERROR: E-NAME 1 no pl.dynamic symbol
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
