# Clusters 0 and 1 (`if blk < 2:`) store rows 16 * blk and load the other one's rows: a dependency across
# clusters, ordered by a barrier between the store and the load. The barrier sat inside the branch, which
# cluster 2 never enters, so it never completed (E-DEADLOCK under fence and syncall). A barrier in an arm of
# a branch on the block index now has a twin at the end of the other arm (here an else the pass adds).
# RUN: expand --v2c fence --blocks 3
# CHECK:     def k_aiv(
# CHECK:         if blk < 2:
# CHECK:             scratch: pl.Tensor[[48, 64], pl.FP16] = pl.tile.store(s, [blk * 16, 0], scratch)
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
        if blk < 2:
            a_t = pl.load(a, [blk * M, 0], [M, K])
            s = pl.add(a_t, a_t)
            scratch = pl.store(s, [blk * M, 0], scratch)
            s_mat = pl.load(scratch, [(1 - blk) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, b_right)
            out = pl.store(z, [blk * M, 0], out)
        return out
