# The printed style of the sample kernel c2v_row_relay (parse + check + print, no expansion).
# RUN: print %shared/kernels/c2v_row_relay.py

# CHECK: # pypto.program: RowRelay
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class RowRelay:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def row_relay(self, x: pl.Tensor[[16, 128], pl.BF16], w: pl.Tensor[[128, 64], pl.BF16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         x_mat: pl.Tile[[16, 128], pl.BF16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:         x_left: pl.Tile[[16, 128], pl.BF16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
# CHECK:         w_mat: pl.Tile[[128, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
# CHECK:         w_right: pl.Tile[[128, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
# CHECK:         scratch: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], scratch)
# CHECK:         for r in pl.range(16):
# CHECK:             row: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch, [r, 0], [1, 64], target_memory=pl.Mem.Vec)
# CHECK:             _muls: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(row, 0.125)
# CHECK:             e: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(_muls)
# CHECK:             out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(e, [r, 0], out)
# CHECK:         return out
