# The printed style of the sample kernel split_updown_scratch (parse + check + print, no expansion).
# RUN: print %shared/kernels/split_updown_scratch.py

# CHECK: # pypto.program: SplitScratch
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class SplitScratch:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def split_scratch(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[32, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
# CHECK:         pl.func_attr({'split': pl.SplitMode.UP_DOWN})
# CHECK:         a_t: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [32, 64])
# CHECK:         s: pl.Tile[[32, 64], pl.FP16, pl.Mem.Vec] = pl.tile.mul(a_t, a_t)
# CHECK:         scratch: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(s, [0, 0], scratch)
# CHECK:         s_mat: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
# CHECK:         s_left: pl.Tile[[32, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
# CHECK:         b_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[32, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, b_right)
# CHECK:         out: pl.Tensor[[32, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:         return out
