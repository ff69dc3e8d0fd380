# pypto.program: Bad
# tensor-level with-scopes are not outlined by cvsim (in printed IR: a source file with one goes to the
# PyPTO bridge, tests/e2e/bridge_test.cpp).
# ERROR: E-UNSUPPORTED 15:14 tensor-level scope
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 32])
        with pl.at(level=pl.Level.CORE_GROUP):  # <-- here
            pass
        out = pl.store(t, [0, 0], out)
        return out
