# pl.tile.gather_compare on the vector side of a mixed kernel, only its counts used: the expander drops the
# unused indices op, and the counts op still checks the row overflow (kvalue below every element: every
# column of a row matches, 16 > out_cols 8).
import pypto.language as pl


@pl.program
class GatherCompareMixed:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 16], pl.FP16], w: pl.Tensor[[16, 16], pl.FP16],
          c1: pl.Out[pl.Tensor[[1, 16], pl.INT32]]) -> pl.Tensor[[1, 16], pl.INT32]:
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(w, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        s = pl.move(acc, target_memory=pl.MemorySpace.Vec)
        tmp = pl.tile.create([1, 256], dtype=pl.UINT8)
        idx, cnt = pl.tile.gather_compare(s, -1000000.0, tmp, cmp_mode="gt", out_cols=8)
        c1_1 = pl.store(cnt, [0, 0], c1)
        return c1_1
