# One scratch reused by every iteration (v2c_reused_scratch.py): besides the RAW token, the loop-carried
# write-after-read is ordered: the cube sets a flag after its load of the scratch, the vector waits for it
# before its next store; a priming set before the loop and a draining wait after it keep the counts equal.
# RUN: expand %shared/kernels/v2c_reused_scratch.py --v2c fence
# CHECK:     def reused_aic(
# CHECK:         pl.system.sync_set(0, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK-NEXT:         for i in pl.range(4):
# CHECK-NEXT:             _v2c_token: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK-NEXT:             pl.system.tfree_to_aiv(_v2c_token)
# CHECK-NEXT:             s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK-NEXT:             pl.system.sync_set(0, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK:     def reused_aiv(
# CHECK:         for i in pl.range(4):
# CHECK:             pl.system.sync_wait(0, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK-NEXT:             scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(t, [0, 0], scratch)
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.tile.tpush_to_aic(t, split=0)
# CHECK-NEXT:         pl.system.sync_wait(0, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK-NEXT:         return out
