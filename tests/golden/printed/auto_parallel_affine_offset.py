# As auto_parallel_data_offset.py, but iteration i writes rows 16 * i ..: the windows differ by the loop index and
# are shown apart, so the unordered OutputExisting writes need no order. Clean.
# RUN: check --schedules 2
# CHECK: [stripe
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def stripe(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[64, 64], pl.FP16], idx: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]
    ) -> pl.Tensor[[64, 64], pl.FP16]:
        for i in pl.parallel(4):
            r: pl.Scalar[pl.INDEX] = i * 16
            o1: pl.Tensor[[64, 64], pl.FP16] = self.stripe(x, r, out)
        return out
