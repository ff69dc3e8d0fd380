# The printed style of the sample kernel v2c_manual_syncall (parse + check + print, no expansion).
# RUN: print %shared/kernels/v2c_manual_syncall.py

# CHECK: # pypto.program: RopeAttnManual
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class RopeAttnManual:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def rope_attn_manual(self, q: pl.Tensor[[16, 128], pl.FP16], cos: pl.Tensor[[16, 128], pl.FP16], k: pl.Tensor[[128, 64], pl.FP16], q_rot: pl.Out[pl.Tensor[[16, 128], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         q_t: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.load(q, [0, 0], [16, 128])
# CHECK:         c_t: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.load(cos, [0, 0], [16, 128])
# CHECK:         r: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.mul(q_t, c_t)
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK:         pl.system.fence()
# CHECK:         pl.system.syncall(core_type='mix', mode='soft')
# CHECK:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:         a_left: pl.Tile[[16, 128], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
# CHECK:         k_mat: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(k, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
# CHECK:         k_right: pl.Tile[[128, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(k_mat, target_memory=pl.Mem.Right)
# CHECK:         scores: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, k_right)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(scores, [0, 0], out)
# CHECK:         return out
