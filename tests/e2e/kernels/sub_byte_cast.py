# The 4-bit dtypes on the vector core (two elements per byte): an FP4 (E2M1) tensor widened to FP32, scaled and
# rounded back (round to nearest even, saturating at 6); an INT4 tensor offset and saturated back; a UINT4 tensor
# copied through in two byte-aligned column halves, swapped.
import pypto.language as pl


@pl.program
class SubByteCast:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP4], b: pl.Tensor[[16, 32], pl.INT4], u: pl.Tensor[[16, 32], pl.UINT4],
          o1: pl.Out[pl.Tensor[[16, 32], pl.FP4]], o2: pl.Out[pl.Tensor[[16, 32], pl.INT4]],
          o3: pl.Out[pl.Tensor[[16, 32], pl.UINT4]], o4: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 32])
        fa = pl.cast(ta, pl.FP32)
        p = pl.mul(fa, 1.5)
        r1 = pl.cast(p, pl.FP4)
        tb = pl.load(b, [0, 0], [16, 32])
        fb = pl.cast(tb, pl.FP32)
        q = pl.add(fb, 3.0)
        r2 = pl.cast(q, pl.INT4)
        u0 = pl.load(u, [0, 0], [16, 16])
        u1 = pl.load(u, [0, 16], [16, 16])
        o3_a = pl.store(u1, [0, 0], o3)
        o3_b = pl.store(u0, [0, 16], o3)
        o1_1 = pl.store(r1, [0, 0], o1)
        o2_1 = pl.store(r2, [0, 0], o2)
        o4_1 = pl.store(fa, [0, 0], o4)
        return o4_1
