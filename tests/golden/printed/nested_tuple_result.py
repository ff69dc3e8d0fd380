# A nested tuple result as PyPTO prints a Spmd wrapper's return (its kernel's tuple, then two tensors): the
# orchestration binds the inner tuple to a name (`inner = ret[0]`) and indexes it. Read, launched and checked
# (before: E-TYPE "a tuple of 2 values cannot be bound to one name"; a tuple literal still is).
# RUN: run
# CHECK: outputs: equal to the reference (2 tensors, bit-exact)
# CHECK: findings: none
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], o1: pl.Out[pl.Tensor[[16, 16], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16])
        o1 = pl.tile.store(t, [0, 0], o1)
        u: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        o2 = pl.tile.store(u, [0, 0], o2)
        return o2, o1

    @pl.function(type=pl.FunctionType.Spmd)
    def k_spmd(self, a: pl.Tensor[[16, 16], pl.FP32], o1: pl.Out[pl.Tensor[[16, 16], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]], pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        r: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]] = self.k(a, o1, o2)
        x2: pl.Tensor[[16, 16], pl.FP32] = r[0]
        x1: pl.Tensor[[16, 16], pl.FP32] = r[1]
        return r, x2, x1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], o1: pl.Out[pl.Tensor[[16, 16], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ret: pl.Tuple[pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]], pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]] = self.k_spmd(a, o1, o2, attrs={"core_num": 1})
        inner: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]] = ret[0]
        y: pl.Tensor[[16, 16], pl.FP32] = inner[1]
        return y
