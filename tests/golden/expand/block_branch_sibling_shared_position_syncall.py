# As block_branch_sibling_shared_position.py, under --v2c syncall.
# RUN: check --v2c syncall --blocks 3 --schedules 20
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

M = 16
K = 64
N = 64
NB = 3


@pl.program
class G:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[512, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[512, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[512, N], pl.FP32]],
    ) -> pl.Tensor[[512, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        if not (blk == 2):
            a3 = pl.load(a, [blk * M, 0], [M, K])
            s3 = pl.add(a3, a3)
            scratch = pl.store(s3, [(blk * 4) * M, 0], scratch)
            m4 = pl.load(scratch, [(((blk + 1) % NB) * 4) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            l4 = pl.move(m4, target_memory=pl.MemorySpace.Left)
            z4 = pl.matmul(l4, b_right)
            out = pl.store(z4, [blk * M, 0], out)
        else:
            a5 = pl.load(a, [blk * M, 0], [M, K])
            s5 = pl.add(a5, a5)
            scratch = pl.store(s5, [(blk * 4) * M, 0], scratch)
            m6 = pl.load(scratch, [(blk * 4) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            l6 = pl.move(m6, target_memory=pl.MemorySpace.Left)
            z6 = pl.matmul(l6, b_right)
            out = pl.store(z6, [blk * M, 0], out)
        return out

