# 'kw' reads t and writes m; when flag > 0 a second 'kw' reads m (the tensor map orders it after the first) and
# writes n; the last 'kw' reads n and overwrites t. When flag <= 0 the middle launch does not run: the last one finds
# no writer of n, and nothing orders its write of t after the first launch's read (E-RACE-WAR). Before: PASS (the
# order through the middle launch was taken on every path; now what a launch runs after reaches a later one
# through it only when it runs whenever the later one does).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 29 'kw' (line 26) reads it and 'kw' writes it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kw(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        m: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        n: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r0: pl.Scalar[pl.INDEX] = 0
        m1: pl.Tensor[[64, 64], pl.FP16] = self.kw(t, r0, m)
        if flag > 0:
            n1: pl.Tensor[[64, 64], pl.FP16] = self.kw(m, r0, n)
        t1: pl.Tensor[[64, 64], pl.FP16] = self.kw(n, r0, t)
        return o
