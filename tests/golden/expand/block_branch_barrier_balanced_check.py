# block_branch_barrier_balanced.py with the store and the load in a 2-trip loop inside the arm: the barrier
# runs twice in clusters 0 and 1, so cluster 2's arm gets two (before: E-DEADLOCK under fence).
# RUN: check --v2c fence --blocks 3
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
        if blk < 2:
            for i in pl.range(2):
                a_t = pl.load(a, [blk * M, 0], [M, K])
                s = pl.add(a_t, a_t)
                scratch = pl.store(s, [blk * M, 0], scratch)
                s_mat = pl.load(scratch, [(1 - blk) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
                s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
                z = pl.matmul(s_left, b_right)
                out = pl.store(z, [blk * M, 0], out)
        return out
