# Two clusters (--blocks 2). The vector stores scratch tile 2 + 4 * blk, the cube loads tile 4 * (1 - blk):
# tiles 2 and 4 in cluster 0, 6 and 0 in cluster 1, apart within a cluster and across clusters. Within a
# cluster the window analysis bounded the block index as an interval, rows 32 + 64 * blk - (64 - 64 * blk)
# in [-32, 96], which may overlap, so reject raised E-V2C-UNFENCED (and fence/syncall placed a barrier for
# nothing). The block index is one value in both windows of a cluster: each value is tried, as for a shared
# loop variable. Racy twin (the load at tile 6 - 4 * blk, the other cluster's store): block_index_windows_meet.py.
# RUN: check --v2c reject --blocks 2
# CHECK: PASS: no finding in any explored schedule
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
        cm = pl.load(scratch, [(4 * (1 - blk)) * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(cl, w_right)
        out = pl.store(z, [blk * 16, 0], out)
        return out
