# The last PyPTO tile ops of issue 12 in one mixed kernel: the cube multiplies, the vector side combines
# partly valid tiles with part_add / part_mul / part_max / part_min, reads the product's bytes as integers
# (reinterpret_view), gathers 32-byte blocks in reverse order (gatherb), overwrites rows by an index tile
# (scatter_update), merges four sorted lists in one mrgsort, and offsets its output rows by its block index
# (get_block_idx / get_block_num / pl.tile.max); a column softmax uses col_expand_expdif / col_expand_div.
import pypto.language as pl

M = 16
K = 32
N = 64


@pl.program
class More:
    @pl.function(type=pl.FunctionType.InCore)
    def more(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        y: pl.Tensor[[M, N], pl.FP32],
        part: pl.Out[pl.Tensor[[2 * M, N], pl.FP32]],
        bits: pl.Out[pl.Tensor[[2 * M, 2 * N], pl.INT16]],
        blocks: pl.Out[pl.Tensor[[2 * M, N], pl.FP32]],
        rows: pl.Out[pl.Tensor[[2 * M, N], pl.FP32]],
        merged: pl.Out[pl.Tensor[[2, 256], pl.FP32]],
        norm: pl.Out[pl.Tensor[[2 * M, N], pl.FP32]],
    ) -> pl.Tensor[[2 * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        nblk = pl.tile.get_block_num()
        r0 = blk * M
        a_mat = pl.load(a, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(a_left, b_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        # partial-region binaries over tiles whose valid regions differ
        yv = pl.load(y, [0, 0], [M, N], valid_shape=[M, 40])
        yw = pl.load(y, [0, 0], [M, N], valid_shape=[8, N])
        p0 = pl.tile.part_add(zv, yv)
        p1 = pl.tile.part_mul(yv, yw)
        p2 = pl.tile.part_max(p0, yw)
        p3 = pl.tile.part_min(p2, p1)
        # the product's bytes as INT16 halves
        h = pl.tile.reinterpret_view(zv, pl.INT16)
        # 32-byte blocks of the product, last block first (byte offsets built with ci, read as UINT32)
        o = pl.tile.ci(127, [M, 8], dtype=pl.INT32, descending=True)
        o = pl.muls(o, 32)
        ou = pl.tile.reinterpret_view(o, pl.UINT32)
        g = pl.tile.gatherb(zv, ou)
        # rows 15, 14, ..., 8 of the product replaced by rows 0..7 of p3
        ix = pl.tile.ci(15, [2, 4], dtype=pl.INT32, descending=True)
        src = pl.tile.extract(p3, 0, 0, [8, N], target_memory=pl.MemorySpace.Vec)
        su = pl.tile.scatter_update(zv, ix, src, dim=-2)
        scale = pl.tile.max(nblk, 1)
        su = pl.adds(su, pl.cast(scale, pl.FP32))
        # four sorted lists merged at once
        idx = pl.tile.ci(0, [1, 32], dtype=pl.INT32)
        l0 = pl.tile.sort32(pl.tile.extract(zv, 0, 0, [1, 32], target_memory=pl.MemorySpace.Vec), idx)
        l1 = pl.tile.sort32(pl.tile.extract(zv, 1, 0, [1, 32], target_memory=pl.MemorySpace.Vec), idx)
        l2 = pl.tile.sort32(pl.tile.extract(zv, 2, 32, [1, 32], target_memory=pl.MemorySpace.Vec), idx)
        l3 = pl.tile.sort32(pl.tile.extract(yv, 3, 0, [1, 32], target_memory=pl.MemorySpace.Vec), idx)
        mtmp = pl.tile.create([1, 256], dtype=pl.FP32)
        m = pl.tile.mrgsort(l0, l1, l2, l3, tmp=mtmp)
        # column softmax: col_expand_expdif / col_expand_div
        ce = pl.tile.col_expand_expdif(zv, pl.tile.col_max(zv))
        cd = pl.tile.col_expand_div(ce, pl.tile.col_sum(ce))
        norm = pl.store(cd, [r0, 0], norm)
        part = pl.store(p3, [r0, 0], part)
        bits = pl.store(h, [r0, 0], bits)
        blocks = pl.store(g, [r0, 0], blocks)
        rows = pl.store(su, [r0, 0], rows)
        merged = pl.store(m, [blk, 0], merged)
        return part
