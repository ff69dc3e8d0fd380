# property 4 (issue 10, oracle sweep): under syncall the RAW of t0 (lines 24-25, inner loop) gets a barrier
# before the cube load and one after it for the loop-carried WAR. The outer pair t1 (lines 29-30) gets its RAW
# barrier; its loop-carried WAR (the next outer iteration's vector store after this iteration's cube load) is
# already ordered by the inner loop's barriers, which run before that store on both lanes: no second barrier.
import pypto.language as pl


@pl.program
class InnerBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t0: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        t1: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        va = pl.load(a, [0, 0], [16, 16])
        for i in pl.range(2):
            for j in pl.range(2):
                t0 = pl.store(va, [0, 0], t0)
                g0 = pl.load(t0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                l0 = pl.move(g0, target_memory=pl.MemorySpace.Left)
                c0 = pl.matmul(l0, rhs)
                out = pl.store(c0, [i * 32 + j * 16, 0], out)
            t1 = pl.store(va, [0, 0], t1)
            g1 = pl.load(t1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            l1 = pl.move(g1, target_memory=pl.MemorySpace.Left)
            c1 = pl.matmul(l1, rhs)
            out = pl.store(c1, [i * 32, 0], out)
        return out
