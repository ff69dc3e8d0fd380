# One mistake repeated on every cluster: each block scales its own rows of x on the vector lane and stores
# them to its own rows of a GM scratch, which the cube lane of the same block reads back for a matmul
# without any ordering (a V2C dependency through GM; with --v2c off a RAW race in every cluster, the
# clusters' windows disjoint). Sized for up to 1000 blocks.
import pypto.language as pl

R = 16
D = 16
B = 1000


@pl.program
class PerBlockRace:
    @pl.function(type=pl.FunctionType.InCore)
    def per_block(
        self,
        x: pl.Tensor[[B * R, D], pl.FP16],
        w: pl.Tensor[[D, D], pl.FP16],
        scratch: pl.Out[pl.Tensor[[B * R, D], pl.FP16]],
        out: pl.Out[pl.Tensor[[B * R, D], pl.FP32]],
    ) -> pl.Tensor[[B * R, D], pl.FP32]:
        blk = pl.tile.get_block_idx()
        x_t = pl.load(x, [blk * R, 0], [R, D])
        y = pl.add(x_t, x_t)
        scratch = pl.store(y, [blk * R, 0], scratch)
        a_mat = pl.load(scratch, [blk * R, 0], [R, D], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [D, D], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(a_left, w_right)
        out = pl.store(acc, [blk * R, 0], out)
        return out
