# --v2c syncall: fence() + syncall(core_type="mix") at the nearest point that dominates the cube load and
# post-dominates the vector store, on both lanes: here inside the loop body, between the store and the load
# of the same iteration (the blocks of different iterations are disjoint, so no second barrier).
# RUN: expand %shared/kernels/v2c_blocked_loop.py --v2c syncall
# CHECK:     def blocked_aic(
# CHECK:         for i in pl.range(4):
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:             s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, i * 64], [16, 64], target_memory=pl.Mem.Mat)
# CHECK-NOT: syncall
# CHECK:     def blocked_aiv(
# CHECK:         for i in pl.range(4):
# CHECK:             scratch: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(sq, [0, i * 64], scratch)
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:         return out
