# Twin of block_index_windows_apart.py: the cube loads tile 6 - 4 * blk, the tile the OTHER cluster's
# vector stores (6 in cluster 0, 2 in cluster 1): a dependency across clusters, which reject names.
# RUN: check --v2c reject --blocks 2
# EXIT: 1
# ERROR: E-V2C-UNFENCED 25:9 in another cluster, with nothing ordering them
import pypto.language as pl


@pl.program
class BlockWindows:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[128, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        blk = pl.tile.get_block_idx()
        xv = pl.load(x, [0, 0], [16, 64])
        tv = pl.add(xv, xv)
        scratch = pl.store(tv, [(2 + 4 * blk) * 16, 0], scratch)
        cm = pl.load(scratch, [(6 - 4 * blk) * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [blk * 16, 0], out)
        return out
