# The launch width is an entry scalar of the orchestration (core_num=nb). Every block stores the same 16
# rows of mid: with nb >= 2 blocks a cross-block WAW. check samples nb (found by review: it launched one
# block and passed) and reports the WAW at nb=2.
import pypto.language as pl


@pl.program
class CoreNumScalar:
    @pl.function(type=pl.FunctionType.InCore)
    def same_rows(self, a: pl.Tensor[[64, 32], pl.FP32], mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        s = pl.add(t, t)
        mid = pl.store(s, [0, 0], mid)
        return mid

    @pl.function(type=pl.FunctionType.Spmd)
    def same_spmd(self, a: pl.Tensor[[64, 32], pl.FP32], mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        m = self.same_rows(a, mid)
        return m

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]], nb: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 32], pl.FP32]:
        m = self.same_spmd(a, mid, attrs={"core_num": nb})
        return m
