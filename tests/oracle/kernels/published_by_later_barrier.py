# property 4 (issue 10, oracle sweep): the vector store of t at line 21 is ordered before the cube store (line
# 25) by the V2C boundary move at line 22, and published with a fence; the later vector store of t (line 24)
# gets a barrier before the cube store, whose fence + syncall also orders and publishes the first one. Its
# own publishing fence is dropped (decided on the final plan, over the unrolled function).
import pypto.language as pl


@pl.program
class LaterBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        rhs = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        w = pl.cast(va, pl.FP32)
        t = pl.store(w, [0, 0], t)
        m = pl.move(va, target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(pl.move(m, target_memory=pl.MemorySpace.Left), rhs)
        t = pl.store(pl.add(w, w), [0, 0], t)
        t = pl.store(acc, [0, 0], t)
        out = pl.store(acc, [0, 0], out)
        return out
