# property 4 (issue 10, oracle sweep): the vector store of w (line 23) and the cube store of w (line 31) are a
# write-after-write the author's flag pair (lines 28-29) orders. Under the ordering policies an ordered store is
# published by a fence after it, but here the barrier planned for the RAW of t (lines 24-25) runs between the two
# stores on both lanes, and its fence publishes w as well: no fence of its own.
import pypto.language as pl


@pl.program
class PublishedByBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        w: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        va = pl.load(a, [0, 0], [16, 16])
        vw = pl.cast(va, pl.FP32)
        w = pl.store(vw, [0, 0], w)
        t = pl.store(va, [0, 0], t)
        g = pl.load(t, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(g, target_memory=pl.MemorySpace.Left)
        c = pl.matmul(lhs, rhs)
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(3, pipe=pl.PipeType.FIX, core_type="aic")
        out = pl.store(c, [0, 0], out)
        w = pl.store(c, [0, 0], w)
        return out
