# block_branch_sibling_arms.py under reject: the dependency across clusters between sibling arms is named
# (before: no diagnostic, the runtime's E-RACE-RAW).
# RUN: check --v2c reject --blocks 3
# EXIT: 1
# ERROR: E-V2C-UNFENCED 31:13 in another cluster, with nothing ordering them
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
