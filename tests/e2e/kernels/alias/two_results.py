# A kernel returning two tensors (its two Out parameters): p1, p2 = self.k1(a, b1, b2) are b1 and b2, so passing them
# on to k2 (p2 as an InOut) shares no bytes: it was refused as both aliasing b1.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(self, a: pl.Tensor[[16, 64], pl.FP32], o1: pl.Out[pl.Tensor[[16, 64], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.adds(t, 1.0)
        o1 = pl.store(u, [0, 0], o1)
        v = pl.muls(t, 2.0)
        o2 = pl.store(v, [0, 0], o2)
        return o1, o2

    @pl.function(type=pl.FunctionType.InCore)
    def k2(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        u = pl.load(y, [0, 0], [16, 64])
        v = pl.add(t, u)
        out = pl.store(v, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        b1 = pl.tensor.create([16, 64], dtype=pl.FP32)
        b2 = pl.tensor.create([16, 64], dtype=pl.FP32)
        p1, p2 = self.k1(a, b1, b2)
        r = self.k2(p1, p2, out)
        return r
