# Each cluster's cube reads only the band its own vector wrote (hard_syncall_partial without the
# barrier): nothing crosses clusters, so --v2c fence places its token and no barrier at any --blocks
# up to NBLK.
import pypto.language as pl

NBLK = 4
M = 16
K = 64
N = 64


@pl.program
class PerBlockBand:
    @pl.function(type=pl.FunctionType.InCore)
    def per_block(
        self,
        a: pl.Tensor[[NBLK * M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[NBLK * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NBLK * M, N], pl.FP32]],
    ) -> pl.Tensor[[NBLK * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * M, 0], [M, K])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [blk * M, 0], scratch)
        s_mat = pl.load(scratch, [blk * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [blk * M, 0], out)
        return out
