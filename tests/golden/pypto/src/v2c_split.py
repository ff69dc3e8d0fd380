# cvsim fixture source (written for cvsim, issue 11): one vector-to-cube kernel with an up/down split.
import pypto.language as pl


@pl.program
class V2CSplit:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        x: pl.Tensor[[32, 64], pl.FP32],
        w: pl.Tensor[[64, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
            y = pl.sub(x, x)
            z = pl.matmul(y, w)
            out = pl.assemble(out, z, [0, 0])
        return out
