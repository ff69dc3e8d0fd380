# PyPTO's printed forms of the row reductions and the transpose carry a scratch operand (tmp_tile) and may
# name axes from the end: row_sum(t, tmp), row_max(t, tmp), transpose(t, -2, -1, tmp). The scratch is not
# needed by the numerics; the results must equal the forms without it.
import pypto.language as pl


@pl.program
class Scratch:
    @pl.function(type=pl.FunctionType.InCore)
    def scratch(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        sums: pl.Out[pl.Tensor[[16, 2], pl.FP32]],
        tr: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        diff: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 2], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        tmp = pl.tile.create([16, 32], dtype=pl.FP32)
        s_plain = pl.row_sum(t)
        s_tmp = pl.row_sum(t, tmp)
        m_tmp = pl.row_max(t, tmp)
        sums = pl.store(pl.sub(s_tmp, s_plain), [0, 0], sums)
        sums = pl.store(m_tmp, [0, 1], sums)
        a = pl.tile.transpose(t, 0, 1)
        b = pl.tile.transpose(t, -2, -1, tmp)
        tr = pl.store(b, [0, 0], tr)
        diff = pl.store(pl.sub(a, b), [0, 0], diff)
        return sums
