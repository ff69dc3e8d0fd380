# Each iteration of a pl.parallel loop creates a row tensor, has 'row_kernel' write it and assembles it into row b
# of 'out'. After PyPTO's FuseCreateAssembleToSlice the tensor is the slice out[b] (an Out argument of its own
# buffer, OutputExisting): the iterations' writes are unordered but at the rows the assemble names, apart. Clean.
# Before: the slice's offsets were not read from the assemble, and the pair was a finding cvsim could not decide.
# RUN: check --schedules 2
# CHECK: [row_kernel
# CHECK-NOT: error[
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
            acc1: pl.Tensor[[4, 64], pl.FP16] = pl.tensor.assemble(acc, row1, [b, 0])
            acc_next: pl.Tensor[[4, 64], pl.FP16] = pl.yield_(acc1)
        return out
