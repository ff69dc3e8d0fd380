# An orchestration launches a mixed kernel with a GM buffer and a pl.tensor.reshape of it as two parameters
# (the pypto-lib pattern `o_heads = pl.tensor.create(...); o = pl.tensor.reshape(o_heads, ...)`). The vector
# lane stores rows 0-15 of each block's part through `s`; the cube lane loads rows 8-15 of it back through `r`
# (the same bytes under the shape [B, 2, 8, 64]), after a hand-written sync_set / sync_wait pair. cvsim binds
# both parameters to one GM tensor: the handoff is ordered (clean), and the cube reads what the vector wrote.
import pypto.language as pl


@pl.program
class ReshapeHandoff:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s: pl.Out[pl.Tensor[[32, 64], pl.FP16]], r: pl.Tensor[[2, 2, 8, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s = pl.store(u, [blk * 16, 0], s)
        pl.system.fence()
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type="aic")
        g = pl.load(r, [blk, 1, 0, 0], [1, 1, 8, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [blk * 8, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.tensor.create([32, 64], dtype=pl.FP16)
        view = pl.tensor.reshape(buf, [2, 2, 8, 64])
        o = self.k(a, w, buf, view, out, attrs={"core_num": 2})
        return o
