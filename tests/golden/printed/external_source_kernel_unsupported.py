# A kernel whose body is C++ elsewhere (PyPTO's @pl.jit.extern prints it with external_source= and a `pass`
# body; written for cvsim): cvsim cannot see what it reads or writes, so check must not call it clean (it was
# PASS: an empty kernel, no access, no finding).
# RUN: check --schedules 2
# ERROR: E-UNSUPPORTED 14 'ext' is an external kernel
import pypto.language as pl


@pl.program
class P:
    @pl.function(
        type=pl.FunctionType.InCore, external_source="kernels/ext/entry.cpp"
    )
    def ext(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        o: pl.Tensor[[16, 64], pl.FP16] = self.ext(x, out)
        return o
