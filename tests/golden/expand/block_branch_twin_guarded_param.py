# As block_branch_twin_guarded.py with `if n > 0:` (a scalar parameter) between the barrier and `if blk < 2:`;
# at n = 0 (a value cvsim samples) the barrier does not run and neither do its twins. Before: E-DEADLOCK at n = 0.
# RUN: check --v2c syncall --blocks 3 --schedules 20
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
        n: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[48, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        if blk < 2:
            if n > 0:
                a_t = pl.load(a, [blk * M, 0], [M, K])
                s = pl.add(a_t, a_t)
                scratch = pl.store(s, [blk * M, 0], scratch)
                s_mat = pl.load(scratch, [(1 - blk) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
                s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
                z = pl.matmul(s_left, b_right)
                out = pl.store(z, [blk * M, 0], out)
        return out
