# block_branch_sibling_arms.py checked: the barriers in both arms order the store of cluster 0 before the
# loads of clusters 1 and 2 (before: E-RACE-RAW under fence).
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
