# property 4 (issue 10, oracle sweep, the largest class of redundant tokens): the author's flag pair orders the
# vector store of t (line 24) before the cube load (line 27) except that its set runs on pipe V, which does not
# cover the store's MTE3. Under fence / syncall the store gets its publishing fence anyway, and that fence
# completes the store before the set: the fence alone orders the pair. A token or a barrier on top would be
# redundant; without the fence the pair races.
import pypto.language as pl


@pl.program
class FlagWrongPipe:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        va = pl.load(a, [0, 0], [16, 16])
        for i in pl.range(2):
            v = pl.add(va, va)
            t = pl.store(v, [i * 16, 0], t)
            pl.system.sync_set(8, pipe=pl.PipeType.V, core_type="aiv")
            pl.system.sync_wait(8, pipe=pl.PipeType.MTE2, core_type="aic")
            g = pl.load(t, [i * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            lhs = pl.move(g, target_memory=pl.MemorySpace.Left)
            c = pl.matmul(lhs, rhs)
            out = pl.store(c, [i * 16, 0], out)
        return out
