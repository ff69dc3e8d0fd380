# cvsim fixture source (written for cvsim, issue 11): an orchestration with two mixed kernel launches and a
# GM tensor between them. PyPTO's pipeline (dump_ir.py) prints it before/after ExpandMixedKernel.
import pypto.language as pl


@pl.program
class TwoStage:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[32, 32], pl.FP32],
        b: pl.Tensor[[32, 32], pl.FP32],
        mid: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        result: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            s = pl.add(a, b)
            p = pl.matmul(s, b)
            mid = pl.assemble(mid, p, [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP):
            q = pl.matmul(mid, a)
            r = pl.mul(q, q)
            result = pl.assemble(result, r, [0, 0])
        return result
