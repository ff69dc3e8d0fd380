# C2V across clusters: the cube of cluster b writes band b of `scratch`, the vector of cluster b reads
# band b + 1 (band NBLK is input data). In one cluster the windows are disjoint; across clusters the read
# must wait for cluster b + 1's store. Upstream leaves it (a race); --c2v complete orders it with a
# barrier. Run with --blocks 2 (NBLK).
import pypto.language as pl

NBLK = 2
M = 16
K = 64
N = 64


@pl.program
class CrossBlockC2v:
    @pl.function(type=pl.FunctionType.InCore)
    def cross_c2v(
        self,
        a: pl.Tensor[[NBLK * M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[(NBLK + 1) * M, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[NBLK * M, N], pl.FP32]],
    ) -> pl.Tensor[[NBLK * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_mat = pl.load(a, [blk * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(a_left, b_right)
        scratch = pl.store(z, [blk * M, 0], scratch)
        v = pl.load(scratch, [(blk + 1) * M, 0], [M, N])
        w = pl.add(v, v)
        out = pl.store(w, [blk * M, 0], out)
        return out
