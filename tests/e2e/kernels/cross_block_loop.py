# Loop-carried V2C across clusters: each iteration the cube of cluster b first reads band b + 1 of
# `scratch`, then the vector of cluster b overwrites band b with that iteration's data. Cluster b + 1's
# store of iteration i must wait for cluster b's read of iteration i (WAR) and come before its read of
# iteration i + 1 (RAW): two barriers per iteration, whatever the other clusters' iteration. Band NBLK
# is input data. Run with --blocks 2 (NBLK).
import pypto.language as pl

NBLK = 2
T = 3
M = 16
K = 64
N = 64


@pl.program
class CrossBlockLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def cross_loop(
        self,
        a: pl.Tensor[[NBLK * M, T * K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[(NBLK + 1) * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NBLK * M, T * N], pl.FP32]],
    ) -> pl.Tensor[[NBLK * M, T * N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(T):
            s_mat = pl.load(scratch, [(blk + 1) * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, b_right)
            out = pl.store(z, [blk * M, i * N], out)
            a_t = pl.load(a, [blk * M, i * K], [M, K])
            s = pl.add(a_t, a_t)
            scratch = pl.store(s, [blk * M, 0], scratch)
        return out
