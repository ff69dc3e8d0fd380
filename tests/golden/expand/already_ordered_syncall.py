# Already ordered by the author's fence + syncall (v2c_manual_syncall.py): the policy adds nothing, no
# token and no second barrier.
# RUN: expand %shared/kernels/v2c_manual_syncall.py --v2c fence
# CHECK:     def rope_attn_manual_aic(
# CHECK-NOT: tpop_from_aiv
# CHECK:         pl.system.fence()
# CHECK-NEXT:         pl.system.syncall(core_type='mix', mode='soft')
# CHECK-NEXT:         a_mat: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK-NOT: syncall
# CHECK:     def rope_attn_manual_aiv(
# CHECK:         q_rot: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(r, [0, 0], q_rot)
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.system.syncall(core_type='mix', mode='soft')
# CHECK-NEXT:         return out
