# v2c_branch.py under --v2c fence: the producer store sits in a branch inside a loop while the cube load is
# at the top level, so no balanced token exists. The dependency falls back to a barrier: fence() +
# syncall(mix) right before the load, on both lanes (soft, with the hidden workspace, below full occupancy).
# RUN: expand %shared/kernels/v2c_branch.py --v2c fence
# CHECK:     def branch_aic(self, a: pl.Tensor[[16, 128], pl.BF16], b: pl.Tensor[[128, 128], pl.BF16], scratch: pl.Out[pl.Tensor[[16, 128], pl.BF16]], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]], __syncall_workspace: pl.InOut[pl.Tensor[[64], pl.INT32]]):
# CHECK-NOT: tpop_from_aiv
# CHECK:         pl.system.fence()
# CHECK-NEXT:         pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:         s_mat: pl.Tile[[16, 128], pl.BF16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
# CHECK:     def branch_aiv(
# CHECK:         for i in pl.range(2):
# CHECK-NEXT:             if i == 0:
# CHECK:                 scratch: pl.Tensor[[16, 128], pl.BF16] = pl.tile.store(s, [0, 0], scratch)
# CHECK-NOT: tpush_to_aic
# CHECK-NEXT:         pl.system.fence()
# CHECK-NEXT:         pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:         return out
# CHECK:         self.branch_aic(a, b, scratch, out, __syncall_workspace)
