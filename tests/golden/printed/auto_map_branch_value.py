# 'ka' reads s and writes x, which is t or u as flag says. 'kw' reads t and writes m; the last 'kw' reads m and
# overwrites s. When x is u, 'kw' finds no writer of t, so the overwrite of s is ordered after 'kw' only, not after
# 'ka', which read s (E-RACE-WAR). Before: PASS (the map edge from 'ka' to the 'kw' reading t was taken from x's
# possible roots: a value that is one of several tensors orders a later launch only at the paths where it is
# that tensor).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 40 'ka' (line 38) reads it and 'kw' writes it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kw(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.InCore)
    def ka(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], io: pl.InOut[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        iv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(io, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, iv)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], io)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], flag: pl.Scalar[pl.INDEX], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        s: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        t: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        u: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        m: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        if flag > 0:
            x: pl.Tensor[[64, 64], pl.FP16] = pl.yield_(t)
        else:
            x: pl.Tensor[[64, 64], pl.FP16] = pl.yield_(u)
        r0: pl.Scalar[pl.INDEX] = 0
        x1: pl.Tensor[[64, 64], pl.FP16] = self.ka(s, r0, x)
        m1: pl.Tensor[[64, 64], pl.FP16] = self.kw(t, r0, m)
        s1: pl.Tensor[[64, 64], pl.FP16] = self.kw(m1, r0, s)
        return o
