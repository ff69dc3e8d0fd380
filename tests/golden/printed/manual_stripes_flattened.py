# A manual scope, a flattened 2-D loop: for i < 8, g = i // 4, n = i % 4, each launch writes the 8 rows at
# g * 32 + n * 8 of 'out', no deps=. Every iteration writes its own rows: clean. cvsim pairs i // 4 and i % 4 with i
# (derived variables) when it compares two iterations' windows. Before: a finding (an offset with // or % was not
# bounded). manual_stripes_flattened_overlap.py steps n by 4 rows: neighbouring stripes share rows.
# RUN: check --schedules 2
# CHECK: [stripe row=0]
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def stripe(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for i in pl.parallel(8):
                g: pl.Scalar[pl.INDEX] = i // 4
                n: pl.Scalar[pl.INDEX] = i % 4
                r: pl.Scalar[pl.INDEX] = g * 32 + n * 8
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, r, out)
        return out
