# property 4 (issue 10, oracle sweep): one vector load of t (line 19) and two cube stores of the same rows after
# it (lines 21 and 22). Under fence each write-after-read gets a token from the load to the cube store; the
# first one's pop (before line 21) also orders the second store: one token stays.
import pypto.language as pl


@pl.program
class WarTwoStores:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        acc = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left),
                        pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right))
        g = pl.load(t, [0, 0], [16, 16])
        out = pl.store(pl.add(g, g), [0, 0], out)
        t = pl.store(acc, [0, 0], t)
        t = pl.store(acc, [0, 0], t)
        return out
