# property 4 (issue 10, oracle sweep): two read-after-writes, t0 (vector store line 22, cube load line 27)
# around t1 (store line 23, load line 24). Under syncall each pair gets a barrier before its cube load; placed
# store by store, t0's came first (before line 27) and t1's second (before line 24), which alone orders both.
# Stores now go in the order of their first dependent load: one barrier, before line 24.
import pypto.language as pl


@pl.program
class NestedRaw:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t0: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        t1: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        rhs = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        v = pl.add(va, va)
        t0 = pl.store(v, [0, 0], t0)
        t1 = pl.store(va, [0, 0], t1)
        g1 = pl.load(t1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        c1 = pl.matmul(pl.move(g1, target_memory=pl.MemorySpace.Left), rhs)
        out = pl.store(c1, [0, 0], out)
        g0 = pl.load(t0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        c0 = pl.matmul(pl.move(g0, target_memory=pl.MemorySpace.Left), rhs)
        out = pl.store(c0, [16, 0], out)
        return out
