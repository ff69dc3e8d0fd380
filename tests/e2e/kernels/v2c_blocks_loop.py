# V2C through a GM scratch in a loop, several clusters with per-block windows (pl.tile.get_block_idx):
# each iteration's token must publish the vector store (system.fence() before the push), or with a
# visibility delay the cube reads stale scratch. Run with --blocks 2.
import pypto.language as pl

NB = 2
B = 3
M = 16
K = 64
N = 64


@pl.program
class BlocksLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def blocks_loop(
        self,
        x: pl.Tensor[[NB * M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[NB * M, B * K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NB * M, B * N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, B * N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(B):
            xb = pl.load(x, [blk * M, i * K], [M, K])
            t = pl.exp(xb)
            scratch = pl.store(t, [blk * M, i * K], scratch)
            s_mat = pl.load(scratch, [blk * M, i * K], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, w_right)
            out = pl.store(z, [blk * M, i * N], out)
        return out
