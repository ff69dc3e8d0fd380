# V2C across clusters with affine windows: NBLK + 1 bands of `scratch`; the vector of cluster b writes
# band b, the cube of cluster b reads band b + 1. In one cluster the two windows are disjoint, so only
# the cross-cluster test sees the dependency (cluster b + 1's store, cluster b's load); band NBLK is
# input data. Run with --blocks 2 (NBLK).
import pypto.language as pl

NBLK = 2
M = 16
K = 64
N = 64


@pl.program
class CrossBlockAffine:
    @pl.function(type=pl.FunctionType.InCore)
    def cross(
        self,
        a: pl.Tensor[[NBLK * M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[(NBLK + 1) * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NBLK * M, N], pl.FP32]],
    ) -> pl.Tensor[[NBLK * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * M, 0], [M, K])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [blk * M, 0], scratch)
        s_mat = pl.load(scratch, [(blk + 1) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [blk * M, 0], out)
        return out
