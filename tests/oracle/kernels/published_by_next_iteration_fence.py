# property 4 (issue 10, oracle sweep): the vector store of t in iteration 1 (rows 16..32, line 25) is what the
# cube load after the loop (line 26) reads; iteration 2's author fence + syncall (lines 22-23) orders it and
# publishes it. The pass adds no publishing fence of its own (the store is followed by no fence in its own
# iteration, so only the unrolled function shows it). Without the author's fence the pass must add one.
import pypto.language as pl


@pl.program
class PublishedLater:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        va = pl.load(a, [0, 0], [16, 16])
        for i in pl.range(3):
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
            v = pl.add(va, va)
            t = pl.store(v, [(i % 2) * 16, 0], t)
        g = pl.load(t, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(g, target_memory=pl.MemorySpace.Left)
        c = pl.matmul(lhs, rhs)
        out = pl.store(c, [0, 0], out)
        return out
