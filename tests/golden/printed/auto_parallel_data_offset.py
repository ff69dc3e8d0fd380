# Each iteration of a pl.parallel loop writes 16 rows of 'out' at a row the orchestration reads from 'idx' (data).
# Outside a sequential loop the Out argument is OutputExisting (not looked up), so only disjoint rows keep two
# iterations apart, and cvsim cannot bound rows that come from data: a finding that says so (E-RACE-WAW, "cannot
# tell whether the two iterations' windows overlap"). Before: no finding (pairs cvsim could not bound were left
# out). auto_parallel_affine_offset.py writes rows 16 * i instead: shown apart, clean.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 28 cannot tell whether the two iterations' windows overlap
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
            r32: pl.Scalar[pl.INT32] = pl.tensor.read(idx, [i])
            r: pl.Scalar[pl.INDEX] = pl.cast(r32, pl.INDEX)
            o1: pl.Tensor[[64, 64], pl.FP16] = self.stripe(x, r, out)
        return out
