# Nested loops, per-block windows (get_block_idx): the store of row j in outer iteration i is read by
# the load of row j in iteration i + 1 (carried by the outer loop only), and overwrites what this
# iteration's load read.
import pypto.language as pl


@pl.program
class Nested:
    @pl.function(type=pl.FunctionType.InCore)
    def nest(self, a: pl.Tensor[[32, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]], out: pl.Out[pl.Tensor[[192, 64], pl.FP32]]) -> pl.Tensor[[192, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            for j in pl.range(2):
                g = pl.load(scratch, [blk * 32 + j * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
                l = pl.move(g, target_memory=pl.MemorySpace.Left)
                z = pl.matmul(l, w_right)
                out = pl.store(z, [blk * 96 + i * 32 + j * 16, 0], out)
                t = pl.load(a, [j * 16, 0], [16, 64])
                u = pl.add(t, t)
                scratch = pl.store(u, [blk * 32 + j * 16, 0], scratch)
        return out
