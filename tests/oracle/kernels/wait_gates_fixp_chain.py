# property 4 (issue 10, oracle sweep): the write-after-write of t (vector line 22, cube line 30) is ordered by
# the author's flag pair (lines 24-25) although the cube waits on MTE2, not on the FIXP pipe of its store: the
# load after the wait (line 26) feeds the FIXP store of out (line 29), which the in-order FIXP pipe runs before
# the store of t. Nothing but the store's publishing fence is added. (Store t before out: not ordered.)
import pypto.language as pl


@pl.program
class WaitGatesFixp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        u: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        rhs = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left), rhs)
        t = pl.store(pl.cast(va, pl.FP32), [0, 0], t)
        u = pl.store(va, [0, 0], u)
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type="aic")
        g = pl.load(u, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(g, target_memory=pl.MemorySpace.Left)
        c = pl.matmul(lhs, rhs)
        out = pl.store(c, [0, 0], out)
        t = pl.store(acc, [0, 0], t)
        return out
