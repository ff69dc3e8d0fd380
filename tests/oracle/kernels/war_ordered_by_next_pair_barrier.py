# property 4 (issue 10, oracle sweep): under syncall the two read-after-writes of t1 (lines 22-23) and t0
# (lines 26-27) in one loop body each get a barrier before their cube load. The loop-carried write-after-read
# of t1 (this iteration's load, the next iteration's store) is ordered by t0's barrier, which is planned after
# t1's pair: the second barriers are decided once every pair is placed, and none is added.
import pypto.language as pl


@pl.program
class NextPairBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t0: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        t1: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[96, 16], pl.FP32]],
    ) -> pl.Tensor[[96, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        rhs = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            t1 = pl.store(va, [0, 0], t1)
            g1 = pl.load(t1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            c1 = pl.matmul(pl.move(g1, target_memory=pl.MemorySpace.Left), rhs)
            out = pl.store(c1, [i * 32, 0], out)
            t0 = pl.store(va, [0, 0], t0)
            g0 = pl.load(t0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            c0 = pl.matmul(pl.move(g0, target_memory=pl.MemorySpace.Left), rhs)
            out = pl.store(c0, [i * 32 + 16, 0], out)
        return out
