# Sibling arms of a branch in a loop, across clusters: the vector of cluster b writes band b in the
# first iterations, the cube reads band b + 1 in the later ones (the other arm). No cluster-local
# position orders them; one barrier after the branch, every iteration, orders both ways. Band NBLK is
# input data. Run with --blocks 2 (NBLK).
import pypto.language as pl

NBLK = 2
M = 16
K = 64
N = 64


@pl.program
class CrossBlockBranch:
    @pl.function(type=pl.FunctionType.InCore)
    def cross_branch(
        self,
        a: pl.Tensor[[NBLK * M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[(NBLK + 1) * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NBLK * M, 4 * N], pl.FP32]],
    ) -> pl.Tensor[[NBLK * M, 4 * N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            if i < 2:
                a_t = pl.load(a, [blk * M, 0], [M, K])
                s = pl.add(a_t, a_t)
                scratch = pl.store(s, [blk * M, 0], scratch)
            else:
                s_mat = pl.load(scratch, [(blk + 1) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
                s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
                z = pl.matmul(s_left, b_right)
                out = pl.store(z, [blk * M, i * N], out)
        return out
