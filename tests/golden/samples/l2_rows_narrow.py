# The printed style of the sample kernel l2_rows_narrow (parse + check + print, no expansion).
# RUN: print %shared/kernels/l2_rows_narrow.py

# CHECK: # pypto.program: RowsNarrow
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class RowsNarrow:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def rows_narrow(self, x: pl.Tensor[[16, 512], pl.FP16], w: pl.Tensor[[512, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         x_mat: pl.Tile[[16, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 512], target_memory=pl.Mem.Mat)
# CHECK:         x_left: pl.Tile[[16, 512], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
# CHECK:         w_mat: pl.Tile[[512, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [512, 64], target_memory=pl.Mem.Mat)
# CHECK:         w_right: pl.Tile[[512, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:         return out
