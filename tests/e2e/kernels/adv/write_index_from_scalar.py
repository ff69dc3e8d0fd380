# pl.tile.write at a row given by a scalar parameter: with `--input r=16` the index is outside the [16, 16] tile.
# Both the reference and the simulator report E-OOB at the write (before: the simulator's op threw inside a
# SystemC process, an opaque "In process: ..." exit 3, and the reference an E-INTERNAL).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self, a: pl.Tensor[[16, 16], pl.FP32], r: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        pl.tile.write(t, [r, 0], 5.0)
        out = pl.store(t, [0, 0], out)
        return out
