# Misleading hand-written orderings (issue 10 class 3), V2C: the test replaces the `# ORDERING` line
# between the vector store and the cube load with an ordering that orders nothing (and `# BEFORE` /
# `# AFTER`: lines before the store / after the load; misleading_sync_test.cpp).
import pypto.language as pl


@pl.program
class MisleadingV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        w_left = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(w_left, target_memory=pl.MemorySpace.Left)
        acc0 = pl.matmul(lhs0, w_right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        # BEFORE
        scratch = pl.store(u, [0, 0], scratch)
        # ORDERING
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        # AFTER
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
