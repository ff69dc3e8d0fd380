# Each function's tiles fit UB as written, but the caller's tile t is live across the call of helper, whose
# statements the launch runs in place (inlined): 256 KiB of UB at helper's load, over a2a3's 184 KiB.
import pypto.language as pl


@pl.program
class InlinedOverUb:
    @pl.function(type=pl.FunctionType.InCore)
    def helper(self, a: pl.Tensor[[256, 128], pl.FP32], out: pl.Out[pl.Tensor[[256, 128], pl.FP32]]) -> pl.Tensor[[256, 128], pl.FP32]:
        u = pl.load(a, [0, 0], [256, 128])
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[256, 128], pl.FP32], out: pl.Out[pl.Tensor[[256, 128], pl.FP32]]) -> pl.Tensor[[256, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [256, 128])
        out = self.helper(a, out)
        out = pl.store(t, [0, 0], out)
        return out
