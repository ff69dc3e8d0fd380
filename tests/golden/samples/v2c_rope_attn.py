# The printed style of the sample kernel v2c_rope_attn (parse + check + print, no expansion).
# RUN: print %shared/kernels/v2c_rope_attn.py

# CHECK: # pypto.program: RopeAttn
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class RopeAttn:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def rope_attn(self, q: pl.Tensor[[16, 128], pl.FP16], cos: pl.Tensor[[16, 128], pl.FP16], sin: pl.Tensor[[16, 128], pl.FP16], k: pl.Tensor[[128, 64], pl.FP16], q_rot: pl.Out[pl.Tensor[[16, 128], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         q_t: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.load(q, [0, 0], [16, 128])
# CHECK:         c_t: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.load(cos, [0, 0], [16, 128])
# CHECK:         s_t: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.load(sin, [0, 0], [16, 128])
# CHECK:         qc: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.mul(q_t, c_t)
# CHECK:         qs: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.mul(q_t, s_t)
# CHECK:         r: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec] = pl.tile.add(qc, qs)
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:         a_left: pl.Tile[[16, 128], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
# CHECK:         k_mat: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(k, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
# CHECK:         k_right: pl.Tile[[128, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(k_mat, target_memory=pl.Mem.Right)
# CHECK:         scores: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, k_right)
# CHECK:         scores_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(scores, target_memory=pl.Mem.Vec)
# CHECK:         scaled: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(scores_vec, 0.0625)
# CHECK:         probs: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(scaled)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(probs, [0, 0], out)
# CHECK:         return out
