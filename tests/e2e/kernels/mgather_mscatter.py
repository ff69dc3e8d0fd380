# pl.tile.mgather (row and elem modes, gather_oob wrap / zero) and pl.tile.mscatter on one vector core: a table
# in GM, index tiles loaded from GM, results stored and scattered. The last scatter index repeats an earlier
# one: the later write wins (row-major order).
import pypto.language as pl


@pl.program
class MgatherMscatter:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, table: pl.Tensor[[16, 32], pl.FP32], ridx: pl.Tensor[[1, 8], pl.INT32],
          eidx: pl.Tensor[[4, 8], pl.INT32], sidx: pl.Tensor[[4, 8], pl.INT32],
          rows: pl.Out[pl.Tensor[[8, 32], pl.FP32]], elems: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
          wrapped: pl.Out[pl.Tensor[[4, 8], pl.FP32]], scat: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        ri = pl.load(ridx, [0, 0], [1, 8])
        g = pl.tile.mgather(table, ri)
        rows_1 = pl.store(g, [0, 0], rows)
        ei = pl.load(eidx, [0, 0], [4, 8])
        e = pl.tile.mgather(table, ei, "elem", gather_oob="zero")
        elems_1 = pl.store(e, [0, 0], elems)
        w = pl.tile.mgather(table, ei, coalesce=1, gather_oob=2)
        wrapped_1 = pl.store(w, [0, 0], wrapped)
        si = pl.load(sidx, [0, 0], [4, 8])
        v = pl.tile.adds(e, 1000.0)
        scat_1 = pl.tile.mscatter(v, si, scat)
        return scat_1
