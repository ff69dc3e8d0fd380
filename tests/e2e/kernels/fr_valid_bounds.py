# A load whose tile [16, 128] is larger than the source [16, 100]: only its valid region is read, and the
# store writes the valid region back (bounds are checked on the valid region, not the physical shape).
import pypto.language as pl


@pl.program
class ValidBounds:
    @pl.function(type=pl.FunctionType.InCore)
    def ragged(
        self,
        x: pl.Tensor[[16, 100], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 100], pl.FP32]],
    ) -> pl.Tensor[[16, 100], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], valid_shape=[16, 100], target_memory=pl.MemorySpace.Vec)
        e = pl.exp(t)
        out = pl.store(e, [0, 0], out)
        return out
