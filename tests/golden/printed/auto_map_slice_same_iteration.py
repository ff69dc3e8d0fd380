# As auto_map_slice_moving_in_loop.py, but 'sa' reads z and rewrites w at the rows of its own iteration (16 * i):
# 'sw' and 'sa' of one iteration share those windows (the tensor map orders 'sa' after 'sw' there, at every
# iteration), and two iterations share no byte. Clean: a map edge between windows that move alike with the loop
# holds at every iteration.
# RUN: check --schedules 2
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def sw(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.InCore)
    def sa(x: pl.Tensor[[16, 64], pl.FP16], io: pl.InOut[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        iv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(io, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, iv)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], io)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, w: pl.InOut[pl.Tensor[[64, 64], pl.FP16]], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        z: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        for i in pl.parallel(4):
            wi: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(w, [16, 64], [i * 16, 0])
            zi: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(z, [16, 64], [i * 16, 0])
            x1: pl.Tensor[[16, 64], pl.FP16] = self.sw(wi, zi)
            x2: pl.Tensor[[16, 64], pl.FP16] = self.sa(x1, wi)
        return o
