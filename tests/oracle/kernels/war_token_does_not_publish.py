# The adversary of the planned-token publication rule: the vector store of t (line 23) and the cube store of t
# (line 29) are a write-after-write the author's flag pair (lines 26 and 28) orders, so the store needs its
# publishing fence under a visibility delay. The write-after-read token the pass places from the vector load of
# u (line 24) to the cube store of u (line 27) runs in between, but it pushes a loaded tile and has no fence:
# it publishes nothing, and the store keeps its own fence.
import pypto.language as pl


@pl.program
class WarTokenNoFence:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        u: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        rhs = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left), rhs)
        t = pl.store(pl.cast(va, pl.FP32), [0, 0], t)
        gu = pl.load(u, [0, 0], [16, 16])
        vout = pl.store(pl.add(gu, gu), [0, 0], vout)
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        u = pl.store(acc, [0, 0], u)
        pl.system.sync_wait(3, pipe=pl.PipeType.FIX, core_type="aic")
        t = pl.store(acc, [0, 0], t)
        return vout
