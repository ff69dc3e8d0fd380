# property 4 (issue 10, oracle sweep): under syncall the RAW of t (lines 23-24) gets a barrier before the cube
# load. Its write-after-read is carried by the outer loop only (the inner iterations touch different rows), and
# between a load and the next store of the same rows the barrier of the other inner iteration always runs: no
# second barrier (found over the unrolled function; the structural rules see only the common loop body).
import pypto.language as pl


@pl.program
class LaterIteration:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        va = pl.load(a, [0, 0], [16, 16])
        for i in pl.range(2):
            for j in pl.range(2):
                t = pl.store(va, [j * 16, 0], t)
                g = pl.load(t, [j * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                lhs = pl.move(g, target_memory=pl.MemorySpace.Left)
                c = pl.matmul(lhs, rhs)
                out = pl.store(c, [i * 32 + j * 16, 0], out)
        return out
