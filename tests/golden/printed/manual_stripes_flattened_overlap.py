# As manual_stripes_flattened.py, with the 8-row stripes at g * 32 + n * 4: iterations n and n + 1 of one group
# write 4 rows in common, unordered (E-RACE-WAW).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 25:17 'stripe' (line 25) writes it and 'stripe' writes it at a later iteration of the loop at line 21
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
                r: pl.Scalar[pl.INDEX] = g * 32 + n * 4
                ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stripe, x, r, out)
        return out
