# Each cluster's vector side stores its own 16-row band of scratch (rows b*16 .. b*16+15); every cube reads
# rows 48-63. On --blocks 2 the bands cover rows 0-31 and no cube read meets a vector store: reject must
# accept it (it left the block index unbounded). On --blocks 4, cluster 3's band is rows 48-63: a V2C RAW
# in cluster 3 and across clusters, which reject must report.
import pypto.language as pl


@pl.program
class BlockBand:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [b * 16, 0], scratch)
        g = pl.load(scratch, [48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, wr)
        out = pl.store(z, [b * 16, 0], out)
        return out
