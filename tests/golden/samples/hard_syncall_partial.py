# The printed style of the sample kernel hard_syncall_partial (parse + check + print, no expansion).
# RUN: print %shared/kernels/hard_syncall_partial.py

# CHECK: # pypto.program: HardSyncall
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class HardSyncall:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def hard_barrier(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]]) -> pl.Tensor[[384, 64], pl.FP32]:
# CHECK:         blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
# CHECK:         a_t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [blk * 16, 0], [16, 64])
# CHECK:         s: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(a_t, a_t)
# CHECK:         scratch: pl.Tensor[[384, 64], pl.FP16] = pl.tile.store(s, [blk * 16, 0], scratch)
# CHECK:         pl.system.fence()
# CHECK:         pl.system.syncall(core_type='mix')
# CHECK:         s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [blk * 16, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:         s_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
# CHECK:         b_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, b_right)
# CHECK:         out: pl.Tensor[[384, 64], pl.FP32] = pl.tile.store(z, [blk * 16, 0], out)
# CHECK:         return out
