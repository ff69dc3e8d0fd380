# A branch whose arms hold only vector work plus the scalar they yield (the row the cube reads next); the
# cube uses the branch's result after it. The yielded scalar is SHARED: the cube must run the branch's
# scalar part too. Block b writes rows [16b, 16b + 16) of `out`.
import pypto.language as pl

M = 48
R = 16
K = 64
N = 64


@pl.program
class SharedScalarBranch:
    @pl.function(type=pl.FunctionType.InCore)
    def shared_scalar_branch(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        a: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        y: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[2 * R, N], pl.FP32]],
    ) -> pl.Tensor[[2 * R, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        if blk == 0:
            t = pl.load(x, [0, 0], [R, K])
            s = pl.add(t, t)
            y = pl.store(s, [0, 0], y)
            r1 = blk + 32
            row = pl.yield_(r1)
        else:
            t2 = pl.load(x, [R, 0], [R, K])
            s2 = pl.mul(t2, t2)
            y = pl.store(s2, [R, 0], y)
            r2 = blk + 16
            row = pl.yield_(r2)
        a_mat = pl.load(a, [row, 0], [R, K], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(a_left, w_right)
        out = pl.store(z, [blk * R, 0], out)
        return out
