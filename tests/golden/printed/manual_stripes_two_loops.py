# A manual scope with two pl.parallel loops of launches and no deps=: the first loop's launches write rows
# 16 * i .. 16 * i + 15 of 'out' (i < 2), the second's rows 16 * j + 32 .. (j < 2). The windows differ by the
# loop indices of two different loops: over their ranges the first loop writes rows 0..31 and the second rows
# 32..63, so no two launches share a byte, within an iteration or across. Clean. Before: an E-RACE-WAW per pair
# (window offsets were compared only when they moved with the same loop variables). manual_stripes_overlap.py
# shifts the second loop by 16 rows: a race.
# RUN: check --schedules 2
# CHECK: [stripe row=0]
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
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for i in pl.parallel(2):
                r: pl.Scalar[pl.INDEX] = i * 16
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, r, out)
            for j in pl.parallel(2):
                r2: pl.Scalar[pl.INDEX] = j * 16 + 32
                ret1: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, r2, out)
        return out
