# A pl.parallel loop's 'sw' reads s rows 16 * i .. and writes t rows 16 * i ..; the host then reads t rows 0..15
# (pl.tensor.read of a slice), which waits for the writer of those rows: iteration 0's launch, not iteration 1's.
# The last 'sw' overwrites s rows 16..31, which iteration 1 read, and nothing orders it after that read
# (E-RACE-WAR). Before: PASS (the read was taken to wait for every iteration's writer of t).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 31 'sw' (line 26) reads it and 'sw' writes it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def sw(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], o: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        s: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        t: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        for i in pl.parallel(2):
            sv: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(s, [16, 64], [i * 16, 0])
            tv: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(t, [16, 64], [i * 16, 0])
            x1: pl.Tensor[[16, 64], pl.FP16] = self.sw(sv, tv)
        t0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(t, [16, 64], [0, 0])
        n: pl.Scalar[pl.FP16] = pl.tensor.read(t0, [0, 0])
        a0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(a, [16, 64], [0, 0])
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(s, [16, 64], [16, 0])
        y1: pl.Tensor[[16, 64], pl.FP16] = self.sw(a0, s1)
        return o
