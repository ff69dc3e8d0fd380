# property 4 (issue 10, oracle sweep): two write-after-writes, t0 (vector line 22, cube line 25) around t1
# (vector line 23, cube line 24). Under syncall each gets a barrier before its cube store; placed in the order
# of the vector stores, t0's came first (before line 25) and t1's second (before line 24), which alone orders
# both. Pairs now go in the order of their cube store: one barrier, before line 24.
import pypto.language as pl


@pl.program
class NestedWaw:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t0: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        t1: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        acc = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left),
                        pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right))
        w = pl.cast(va, pl.FP32)
        t0 = pl.store(w, [0, 0], t0)
        t1 = pl.store(w, [0, 0], t1)
        t1 = pl.store(acc, [0, 0], t1)
        t0 = pl.store(acc, [0, 0], t0)
        return t0
