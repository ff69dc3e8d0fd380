# Hand-written: an inner loop from i to 2 where i is assigned 5 after it: the inner loop runs 3 times in all, and its
# launches race (E-RACE-WAW). Before: PASS (the bound was read as 5, a loop that never runs). Found by a review.
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-RAW 39:13
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def wr(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def allrows(x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[64, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 3.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.InCore)
    def rd(src: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], dst: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        sv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(src, [row, 0], [8, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 2.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], dst)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for i in pl.range(2):
                for j in pl.range(i, 2):
                    ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.wr, x, 0, out)
                i: pl.Scalar[pl.INDEX] = 5
            ret2: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.allrows, out, o2)
        return o2
# ERROR: E-RACE-WAW 37:21
