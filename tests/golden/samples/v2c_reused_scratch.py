# The printed style of the sample kernel v2c_reused_scratch (parse + check + print, no expansion).
# RUN: print %shared/kernels/v2c_reused_scratch.py

# CHECK: # pypto.program: ReusedScratch
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class ReusedScratch:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def reused(self, x: pl.Tensor[[16, 256], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
# CHECK:         w_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
# CHECK:         w_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
# CHECK:         for i in pl.range(4):
# CHECK:             xb: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, i * 64], [16, 64])
# CHECK:             t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xb, xb)
# CHECK:             scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(t, [0, 0], scratch)
# CHECK:             s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:             s_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
# CHECK:             z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, w_right)
# CHECK:             out: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(z, [i * 16, 0], out)
# CHECK:         return out
