# A tensor-level op inside an InCore function is lowered by PyPTO's ConvertTensorToTileOps before
# ExpandMixedKernel: cvsim names that pass (E-UNSUPPORTED), never E-TYPE.
# ERROR: E-UNSUPPORTED 12:44 ConvertTensorToTileOps
import pypto.language as pl


@pl.program
class TensorInCore:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        x0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(x, [16, 64], [0, 0])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(t, [0, 0], out)
        return out_1
