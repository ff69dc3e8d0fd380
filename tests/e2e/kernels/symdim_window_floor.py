# Two pl.dynamic symbols no call, input or --dim binds. The kernel reads a 256-row window of x ([N, 64]) and
# writes a 64-row tile at row 96 of out2 ([K, 64]): any N below 256 or K below 160 makes the program invalid
# (E-OOB), so cvsim's made-up sizes are N=256 and K=160, not the plain default 128 (docs/DECISIONS.md).
import pypto.language as pl

N = pl.dynamic("N")
K = pl.dynamic("K")


@pl.program
class WindowFloor:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[N, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[N, 64], pl.FP32]],
        out2: pl.Out[pl.Tensor[[K, 64], pl.FP32]],
    ) -> pl.Tuple[pl.Tensor[[N, 64], pl.FP32], pl.Tensor[[K, 64], pl.FP32]]:
        xv: pl.Tile[[256, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [256, 64])
        y: pl.Tile[[256, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        o1: pl.Tensor[[N, 64], pl.FP32] = pl.tile.store(y, [0, 0], out)
        zv: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [192, 0], [64, 64])
        o2: pl.Tensor[[K, 64], pl.FP32] = pl.tile.store(zv, [96, 0], out2)
        return o1, o2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[N, 64], pl.FP32]],
        out2: pl.Out[pl.Tensor[[K, 64], pl.FP32]],
    ) -> pl.Tuple[pl.Tensor[[N, 64], pl.FP32], pl.Tensor[[K, 64], pl.FP32]]:
        r1, r2 = self.scale(x, out, out2)
        return r1, r2
