# A keyword argument that is no near miss of the op's parameters is one cvsim's catalogue does not model:
# E-UNSUPPORTED naming it (ignoring it could change the result), not E-TYPE.
# ERROR: E-UNSUPPORTED 12:77 keyword argument 'clamp'
import pypto.language as pl


@pl.program
class Unmodelled:
    @pl.function(type=pl.FunctionType.InCore)
    def f(x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
        out_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(t, [0, 0], out, clamp=False)
        return out_1
