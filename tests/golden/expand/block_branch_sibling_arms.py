# Cluster 0 stores rows 0..16 in the then-arm of `if blk == 0:`, the other clusters' cubes load them in the
# else-arm, at the same time: a dependency across clusters between sibling arms, in no loop. It was not
# paired at all (sibling arms were taken as exclusive, as they are within one cluster): reject let the
# runtime find the race and fence / syncall left it. Now each arm gets a barrier, after the first access in
# its arm and before the second in the other (each cluster takes one arm, so each arrives once). Which one
# is first is the reference's lockstep order: the lower statement index in its arm (here a tie, both at 0:
# the lower block, cluster 0's store, goes first).
# RUN: expand --v2c fence --blocks 3
# CHECK:     def k_aic(
# CHECK:         if blk == 0:
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:         else:
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:             s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:     def k_aiv(
# CHECK:         if blk == 0:
# CHECK-NEXT:             scratch: pl.Tensor[[48, 64], pl.FP16] = pl.tile.store(s, [0, 0], scratch)
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
# CHECK-NEXT:         else:
# CHECK-NEXT:             pl.system.fence()
# CHECK-NEXT:             pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class BlockBranch:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[48, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[48, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[48, N], pl.FP32]],
    ) -> pl.Tensor[[48, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        a_t = pl.load(a, [blk * M, 0], [M, K])
        s = pl.add(a_t, a_t)
        if blk == 0:
            scratch = pl.store(s, [0, 0], scratch)
        else:
            s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, b_right)
            out = pl.store(z, [blk * M, 0], out)
        return out
