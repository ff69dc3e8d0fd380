# An author's intra-cluster ordering does not order a dependency between clusters: the vector's tile
# goes to the cube through a V2C tile move after the store (which orders the store before the cube's
# later load IN ITS CLUSTER), but the cube of cluster b reads the band cluster (b + 1) % NBLK wrote.
# Run with --blocks 2 (NBLK).
import pypto.language as pl

NBLK = 2
M = 16
K = 64
N = 64


@pl.program
class CrossBlockTransport:
    @pl.function(type=pl.FunctionType.InCore)
    def cross_move(
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
        s_own = pl.move(s, target_memory=pl.MemorySpace.Mat)
        nb = (blk + 1) % NBLK
        s_mat = pl.load(scratch, [nb * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        own_left = pl.move(s_own, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        z = pl.matmul_acc(z, own_left, b_right)
        out = pl.store(z, [blk * M, 0], out)
        return out
