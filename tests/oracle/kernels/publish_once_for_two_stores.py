# property 4 (issue 10, oracle sweep): two vector stores of the same rows of t (lines 23 and 27), both ordered
# before the cube store (line 30) by the V2C boundary move at line 28. Each gets a publishing fence under the
# ordering policies, but the fence after the second store also publishes the first one before that release
# (a fence waits for every GM write of its core): one fence stays. The C2V boundary move at line 24 between them
# keeps the structural merge from seeing it; the unrolled function does.
import pypto.language as pl


@pl.program
class PublishOnce:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        va = pl.load(a, [0, 0], [16, 16])
        acc = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left), rhs)
        t = pl.store(pl.cast(va, pl.FP32), [0, 0], t)
        s = pl.move(acc, target_memory=pl.MemorySpace.Vec)
        v = pl.cast(s, pl.FP16)
        w = pl.cast(v, pl.FP32)
        t = pl.store(w, [0, 0], t)
        m = pl.move(va, target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(m, target_memory=pl.MemorySpace.Left)
        t = pl.store(acc, [0, 0], t)
        c = pl.matmul(lhs, rhs)
        out = pl.store(c, [0, 0], out)
        return out
