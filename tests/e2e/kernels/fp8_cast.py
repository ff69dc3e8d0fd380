# The 8-bit float dtypes on the vector core: FP8 tensors loaded, widened to FP32, computed on, rounded back to
# each FP8 format (E4M3FN, E5M2, HF8) and stored; an E4M3FN tensor also goes straight through.
import pypto.language as pl


@pl.program
class Fp8Cast:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP8E4M3FN], b: pl.Tensor[[16, 32], pl.FP8E5M2],
          o1: pl.Out[pl.Tensor[[16, 32], pl.FP8E4M3FN]], o2: pl.Out[pl.Tensor[[16, 32], pl.FP8E5M2]],
          o3: pl.Out[pl.Tensor[[16, 32], pl.HF8]], o4: pl.Out[pl.Tensor[[16, 32], pl.FP8E4M3FN]]) -> pl.Tensor[[16, 32], pl.HF8]:
        ta = pl.load(a, [0, 0], [16, 32])
        tb = pl.load(b, [0, 0], [16, 32])
        fa = pl.cast(ta, pl.FP32)
        fb = pl.cast(tb, pl.FP32)
        s = pl.add(fa, fb)
        p = pl.mul(s, 3.0)
        r1 = pl.cast(p, pl.FP8E4M3FN)
        r2 = pl.cast(p, pl.FP8E5M2)
        r3 = pl.cast(p, pl.HF8)
        o1_1 = pl.store(r1, [0, 0], o1)
        o2_1 = pl.store(r2, [0, 0], o2)
        o3_1 = pl.store(r3, [0, 0], o3)
        o4_1 = pl.store(ta, [0, 0], o4)
        return o3_1
