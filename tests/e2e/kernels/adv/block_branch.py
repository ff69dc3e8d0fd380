# Only block 1 writes the scratch (a branch on the block index); every block's cube then reads it. With
# --blocks 2 this is a cross-cluster V2C RAW: off races, fence/syncall order it with a barrier. The
# reference ran the blocks in lockstep by the rank of each GM access, so block 0 (which skips the store)
# read before block 1 wrote: a false E-MISMATCH on the correct expansion.
import pypto.language as pl

@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        if blk == 1:
            t = pl.load(a, [0, 0], [16, 64])
            u = pl.add(t, t)
            scratch = pl.store(u, [0, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [blk * 16, 0], out)
        return out
