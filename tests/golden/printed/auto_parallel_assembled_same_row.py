# As auto_parallel_assembled_rows.py, but every iteration assembles its row into row 0: the fused slices are the
# same bytes, written by unordered OutputExisting launches (E-RACE-WAW).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 22 at a later iteration of the loop at line 20
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def row_kernel(x: pl.Tensor[[1, 64], pl.FP16], out: pl.Out[pl.Tensor[[1, 64], pl.FP16]]) -> pl.Tensor[[1, 64], pl.FP16]:
        xv: pl.Tile[[1, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[1, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[1, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1, 64], pl.FP16], out: pl.Out[pl.Tensor[[4, 64], pl.FP16]]) -> pl.Tensor[[4, 64], pl.FP16]:
        for b, (acc,) in pl.parallel(4, init_values=(out,)):
            row: pl.Tensor[[1, 64], pl.FP16] = pl.tensor.create([1, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
            row1: pl.Tensor[[1, 64], pl.FP16] = self.row_kernel(x, row)
            acc1: pl.Tensor[[4, 64], pl.FP16] = pl.tensor.assemble(acc, row1, [0, 0])
            acc_next: pl.Tensor[[4, 64], pl.FP16] = pl.yield_(acc1)
        return out
