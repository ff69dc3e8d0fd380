# The printed style of the sample kernel flash_block (parse + check + print, no expansion).
# RUN: print %shared/kernels/flash_block.py

# CHECK: # pypto.program: FlashBlock
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class FlashBlock:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def flash(self, q: pl.Tensor[[128, 128], pl.FP16], k: pl.Tensor[[128, 1024], pl.FP16], v: pl.Tensor[[1024, 128], pl.FP16], out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
# CHECK:         q_mat: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q, [0, 0], [128, 128], target_memory=pl.Mem.Mat)
# CHECK:         q_left: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left] = pl.tile.move(q_mat, target_memory=pl.Mem.Left)
# CHECK:         k0_mat: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(k, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
# CHECK:         k0_right: pl.Tile[[128, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(k0_mat, target_memory=pl.Mem.Right)
# CHECK:         s0: pl.Tile[[128, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(q_left, k0_right)
# CHECK:         s0_vec: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(s0, target_memory=pl.Mem.Vec)
# CHECK:         _muls: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(s0_vec, 0.0625)
# CHECK:         p0: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(_muls)
# CHECK:         p0_h: pl.Tile[[128, 64], pl.FP16, pl.Mem.Vec] = pl.tile.cast(p0, pl.FP16)
# CHECK:         p0_mat: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.move(p0_h, target_memory=pl.Mem.Mat)
# CHECK:         p0_left: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(p0_mat, target_memory=pl.Mem.Left)
# CHECK:         v0_mat: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(v, [0, 0], [64, 128], target_memory=pl.Mem.Mat)
# CHECK:         v0_right: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.move(v0_mat, target_memory=pl.Mem.Right)
# CHECK:         o0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(p0_left, v0_right)
# CHECK:         for i, (o,) in pl.range(1, 16, init_values=(o0,)):
# CHECK:             k_mat: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(k, [0, i * 64], [128, 64], target_memory=pl.Mem.Mat)
# CHECK:             k_right: pl.Tile[[128, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(k_mat, target_memory=pl.Mem.Right)
# CHECK:             s: pl.Tile[[128, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(q_left, k_right)
# CHECK:             s_vec: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(s, target_memory=pl.Mem.Vec)
# CHECK:             _muls_1: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(s_vec, 0.0625)
# CHECK:             p: pl.Tile[[128, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(_muls_1)
# CHECK:             p_h: pl.Tile[[128, 64], pl.FP16, pl.Mem.Vec] = pl.tile.cast(p, pl.FP16)
# CHECK:             p_mat: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.move(p_h, target_memory=pl.Mem.Mat)
# CHECK:             p_left: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(p_mat, target_memory=pl.Mem.Left)
# CHECK:             v_mat: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(v, [i * 64, 0], [64, 128], target_memory=pl.Mem.Mat)
# CHECK:             v_right: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.move(v_mat, target_memory=pl.Mem.Right)
# CHECK:             o_next: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(o, p_left, v_right)
# CHECK:             o_out: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(o_next)
# CHECK:         out: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(o_out, [0, 0], out)
# CHECK:         return out
