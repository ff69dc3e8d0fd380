# Two SPMD launches of 4 blocks each (attrs={"core_num": 4}, as PyPTO prints a launch's width): each block
# doubles (then scales) its own 16 rows. The width is the launch's, so each kernel is checked on 4 blocks
# (it used to be checked on 1, where blocks writing the same rows could not race).
import pypto.language as pl


@pl.program
class CoreNum:
    @pl.function(type=pl.FunctionType.InCore)
    def double_rows(self, a: pl.Tensor[[64, 32], pl.FP32], mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(a, [b * 16, 0], [16, 32])
        s = pl.add(t, t)
        mid = pl.store(s, [b * 16, 0], mid)
        return mid

    @pl.function(type=pl.FunctionType.InCore)
    def scale_rows(self, mid: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(mid, [b * 16, 0], [16, 32])
        s = pl.muls(t, 3.0)
        out = pl.store(s, [b * 16, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def double_spmd(self, a: pl.Tensor[[64, 32], pl.FP32], mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        m = self.double_rows(a, mid)
        return m

    @pl.function(type=pl.FunctionType.Spmd)
    def scale_spmd(self, mid: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        o = self.scale_rows(mid, out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        m = self.double_spmd(a, mid, attrs={"core_num": 4})
        o = self.scale_spmd(m, out, attrs={"core_num": 4})
        return o
