# pl.tile.write as a statement (PyPTO's form) writes its tile in place: out[0, 0] must be 5. The statement's
# result was dropped, so the reference and the simulator both left the tile unchanged (a silent no-op).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        pl.tile.write(t, [0, 0], 5.0)
        out = pl.store(t, [0, 0], out)
        return out
