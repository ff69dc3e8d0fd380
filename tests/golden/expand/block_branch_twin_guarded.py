# A barrier the fence policy places under `if i == 0:` (the same in every cluster) inside `if blk < 2:`: its
# twins at the end of the else arm run under `if i == 0:` too, so cluster 2 arrives as often as clusters 0 and
# 1. Before: the twins ran in every iteration, E-DEADLOCK on 3 blocks (found by review).
# RUN: check --v2c fence --blocks 3 --schedules 20
# EXIT: 0
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
        for i in pl.range(2):
            if blk < 2:
                if i == 0:
                    a_t = pl.load(a, [blk * M, 0], [M, K])
                    s = pl.add(a_t, a_t)
                    scratch = pl.store(s, [blk * M, 0], scratch)
                    s_mat = pl.load(scratch, [(1 - blk) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
                    s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
                    z = pl.matmul(s_left, b_right)
                    out = pl.store(z, [blk * M, 0], out)
        return out
