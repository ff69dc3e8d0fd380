# Every value check samples for `row` (1, 2, 0) puts the load's window past the 32-row tensor: the kernel
# gets no verdict (E-UNCHECKED, exit 2) rather than a clean one, and --input row=-1 checks it.
import pypto.language as pl


@pl.program
class SampledAllOob:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[32, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], row: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [(row + 2) * 16, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out
