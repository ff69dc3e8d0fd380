# As auto_war_data_row.py, but 'consume_at' reads rows 0..15: apart from the second write (rows 16..31), so the
# write-after-read the runtime does not order needs no order. Clean.
# RUN: check --schedules 2
# CHECK: [stripe
# CHECK-NOT: error[
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
        o1: pl.Tensor[[16, 64], pl.FP16] = self.consume_at(t1, 0, out)
        t2: pl.Tensor[[64, 64], pl.FP16] = self.stripe(x, 16, t1)
        return o1
