# cvsim fixture source (written for cvsim, issue 11): cube-to-vector over column blocks in a loop.
import pypto.language as pl


@pl.program
class C2VBlocks:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[32, 128], pl.FP32],
        c: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            for j in pl.range(4):
                bj = pl.slice(b, [32, 32], [0, j * 32])
                m = pl.matmul(a, bj)
                e = pl.exp(m)
                c = pl.assemble(c, e, [0, j * 32])
        return c
