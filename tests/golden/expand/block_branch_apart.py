# Only cluster 0 stores scratch (`if blk == 0:`, rows blk * 16 = 0..16); every cluster's cube loads rows
# 16..32, which no cluster writes: no dependency. The window analysis took the store for every cluster (rows
# 16..32 in cluster 1), so reject raised E-V2C-UNFENCED across clusters (and fence placed a barrier for
# nothing). A branch on the block index limits the clusters an access runs in (WindowAnalysis::block_values).
# Racy twin: block_branch_meet.py.
# RUN: check --v2c reject --blocks 3
# CHECK: PASS: no finding in any explored schedule
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
        if blk == 0:
            a_t = pl.load(a, [blk * M, 0], [M, K])
            s = pl.add(a_t, a_t)
            scratch = pl.store(s, [blk * M, 0], scratch)
        s_mat = pl.load(scratch, [M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [blk * M, 0], out)
        return out
