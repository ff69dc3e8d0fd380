# property 4 (issue 10, oracle sweep): the loop-carried write-after-read of t (cube load line 27 of one
# iteration, vector store line 26 of the next) needs no second barrier: the loaded tile feeds the cube's FIXP
# store of out (line 30), and the C2V boundary move of acc (line 31) pushes on the same in-order FIXP pipe
# after it; the vector lane pops that tile (line 32) before its next store. Only the RAW barrier is added.
import pypto.language as pl


@pl.program
class CubeChain:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        acc = pl.matmul(lhs0, rhs)
        va = pl.load(a, [0, 0], [16, 16])
        for i in pl.range(3):
            t = pl.store(va, [0, 0], t)
            g = pl.load(t, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            lhs = pl.move(g, target_memory=pl.MemorySpace.Left)
            c = pl.matmul(lhs, rhs)
            out = pl.store(c, [(i % 2) * 16, 0], out)
            s = pl.move(acc, target_memory=pl.MemorySpace.Vec)
            v = pl.cast(s, pl.FP16)
            vout = pl.store(v, [(i % 2) * 16, 0], vout)
        return out
