# An orchestration's constant pl.tensor.slice outside its tensor (rows 20-35 of a 32-row buffer): E-OOB, as a
# kernel's constant window is. It was accepted and the launch checked clean on a parameter tensor of its own.
# RUN: check
# ERROR: E-OOB 20
import pypto.language as pl


@pl.program
class HostSliceOob:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], s1: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s1 = pl.store(u, [0, 0], s1)
        return s1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16]) -> pl.Tensor[[16, 64], pl.FP16]:
        buf = pl.tensor.create([32, 64], dtype=pl.FP16)
        v1 = pl.tensor.slice(buf, [16, 64], [20, 0])
        r = self.k(a, v1)
        return r
