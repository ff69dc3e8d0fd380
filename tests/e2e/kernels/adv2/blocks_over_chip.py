# a2a3 has 24 clusters. Below 24 blocks --v2c syncall|fence order the cross-cluster RAW with a soft barrier, at
# exactly 24 with a hard one (SPEC 5.7). With --blocks 30 the blocks run in waves and no barrier over all of them
# completes (the first policy emitted a hard barrier, the next a soft one: both hang on hardware), so the
# policies refuse it (E-OCCUPANCY).  cvsim check THIS --blocks 30 --v2c syncall
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[480, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[480, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[480, 64], pl.FP32]],
    ) -> pl.Tensor[[480, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [blk * 16, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [blk * 16, 0], scratch)
        g = pl.load(scratch, [pl.min(blk + 1, 29) * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [blk * 16, 0], out)
        return out
