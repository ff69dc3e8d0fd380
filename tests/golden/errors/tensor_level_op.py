# A compute op on a GM tensor is tensor-level code that PyPTO lowers before ExpandMixedKernel: E-UNSUPPORTED
# naming the pass, not E-TYPE.
# ERROR: E-UNSUPPORTED 11:50 ConvertTensorToTileOps
import pypto.language as pl


@pl.program
class TensorLevel:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        y: pl.Tensor[[16, 32], pl.FP32] = pl.add(x, 1.0)
        return y
