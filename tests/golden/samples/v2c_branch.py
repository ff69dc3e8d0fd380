# The printed style of the sample kernel v2c_branch (parse + check + print, no expansion).
# RUN: print %shared/kernels/v2c_branch.py

# CHECK: # pypto.program: BranchV2C
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class BranchV2C:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def branch(self, a: pl.Tensor[[16, 128], pl.BF16], b: pl.Tensor[[128, 128], pl.BF16], scratch: pl.Out[pl.Tensor[[16, 128], pl.BF16]], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
# CHECK:         for i in pl.range(2):
# CHECK:             if i == 0:
# CHECK:                 a_t: pl.Tile[[16, 128], pl.BF16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 128])
# CHECK:                 s: pl.Tile[[16, 128], pl.BF16, pl.Mem.Vec] = pl.tile.add(a_t, a_t)
# CHECK:                 scratch: pl.Tensor[[16, 128], pl.BF16] = pl.tile.store(s, [0, 0], scratch)
# CHECK:         s_mat: pl.Tile[[16, 128], pl.BF16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:         s_left: pl.Tile[[16, 128], pl.BF16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
# CHECK:         b_mat: pl.Tile[[128, 128], pl.BF16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 128], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[128, 128], pl.BF16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, b_right)
# CHECK:         out: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:         return out
