# --v2c syncall on a launch that fills the chip (--blocks 24 on a2a3): the barrier is hard, with no
# workspace parameter.
# RUN: expand %shared/kernels/v2c_rope_attn.py --v2c syncall --blocks 24
# CHECK:     def rope_attn_aic(self, q: pl.Tensor[[16, 128], pl.FP16], cos: pl.Tensor[[16, 128], pl.FP16], sin: pl.Tensor[[16, 128], pl.FP16], k: pl.Tensor[[128, 64], pl.FP16], q_rot: pl.Out[pl.Tensor[[16, 128], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
# CHECK:         pl.system.fence()
# CHECK-NEXT:         pl.system.syncall(core_type='mix')
# CHECK-NEXT:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:     def rope_attn_aiv(
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.system.syncall(core_type='mix')
# CHECK-NOT: __syncall_workspace
