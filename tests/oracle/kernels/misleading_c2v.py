# Misleading hand-written orderings (issue 10 class 3), C2V under --c2v complete: the test replaces the
# `# ORDERING` line between the cube store and the vector load with an ordering that orders nothing
# (and `# BEFORE` / `# AFTER`: lines before the store / after the load).
import pypto.language as pl


@pl.program
class MisleadingC2v:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        a_mat = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        acc0 = pl.matmul(lhs0, w_right)
        t = pl.load(a, [0, 0], [16, 64])
        # BEFORE
        for i in pl.range(2):
            scratch = pl.store(acc0, [i * 16, 0], scratch)
        # ORDERING
        g = pl.load(scratch, [16, 0], [16, 64])
        e = pl.exp(g)
        # AFTER
        out = pl.store(e, [0, 0], out)
        return out
