# 'stripe' writes rows 0..15 of t, 'consume_at' reads 16 rows of it at a row read from 'idx' (data), then 'stripe'
# writes rows 16..31. The runtime orders the second write after the first (InOut: an earlier launch wrote t) but
# not after the read; whether the read reaches rows 16..31 depends on the data, which cvsim cannot bound: an
# E-RACE-WAR that says so ("cannot tell whether their windows overlap"). With the read at a constant row 0
# (auto_war_const_row.py) the windows are apart: clean.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 36 cannot tell whether their windows overlap
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def stripe(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(xv, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def consume_at(t: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        tv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(t, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(tv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[64, 64], pl.FP16], idx: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]
    ) -> pl.Tensor[[16, 64], pl.FP16]:
        t: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        t1: pl.Tensor[[64, 64], pl.FP16] = self.stripe(x, 0, t)
        r32: pl.Scalar[pl.INT32] = pl.tensor.read(idx, [0])
        r: pl.Scalar[pl.INDEX] = pl.cast(r32, pl.INDEX)
        o1: pl.Tensor[[16, 64], pl.FP16] = self.consume_at(t1, r, out)
        t2: pl.Tensor[[64, 64], pl.FP16] = self.stripe(x, 16, t1)
        return o1
