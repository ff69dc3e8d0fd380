# A mixed kernel over the catalogue ops issue 12 names: the cube extracts a K window of x from L1 into L0A
# (tile.extract), multiplies; the vector side normalises the product with row_expand_* / col_expand_*,
# clamps with maximums / minimums, pads with fillpad*, indexes with ci, joins with concat, cuts with extract,
# and edits single elements with read / write / assemble.
import pypto.language as pl

M = 16
K = 64
N = 32
H = 16


@pl.program
class Catalogue:
    @pl.function(type=pl.FunctionType.InCore)
    def catalogue(
        self,
        x: pl.Tensor[[M, 128], pl.BF16],
        w: pl.Tensor[[K, N], pl.BF16],
        y: pl.Tensor[[M, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        aux: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [M, 128], target_memory=pl.MemorySpace.Mat)
        x_left = pl.tile.extract(x_mat, 0, 64, [M, K], target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, w_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        # softmax rows: row_expand_expdif / row_expand_div
        rmax = pl.row_max(zv)
        e = pl.tile.row_expand_expdif(zv, rmax)
        rs = pl.row_sum(e)
        p = pl.tile.row_expand_div(e, rs)
        # column statistics: col_expand_sub / _mul / _add / _max / _min / col_expand
        cmax = pl.tile.col_max(p)
        q = pl.tile.col_expand_sub(p, cmax)
        q = pl.tile.col_expand_mul(q, cmax)
        idx = pl.tile.ci(0, [1, N], dtype=pl.INT32)
        idxf = pl.muls(pl.cast(idx, pl.FP32), 0.01)
        q = pl.tile.col_expand_add(q, idxf)
        q = pl.tile.col_expand_max(q, pl.tile.col_min(q))
        q = pl.tile.col_expand_min(q, cmax)
        # row broadcasts: row_expand_sub / _mul / _add / _max / _min
        rmin = pl.tile.row_min(q, zv)
        q = pl.tile.row_expand_sub(q, rmin)
        q = pl.tile.row_expand_mul(q, rs)
        q = pl.tile.row_expand_add(q, rmin)
        q = pl.tile.row_expand_max(q, rmin)
        q = pl.tile.row_expand_min(q, rs)
        q = pl.tile.maximums(q, -0.5)
        q = pl.tile.minimums(q, 0.75)
        # a partially valid load padded three ways
        yv = pl.load(y, [0, 0], [M, N], valid_shape=[M, 20])
        f = pl.tile.fillpad(yv, pad_value=pl.PadValue.zero)
        g = pl.tile.fillpad_inplace(yv, pad_value=0.5)
        small = pl.load(y, [0, 0], [M, H])
        h = pl.tile.fillpad_expand(small, [M, N], pad_value=pl.PadValue.min)
        h = pl.tile.maximums(h, -1.0)
        # join and cut
        left = pl.tile.extract(f, 0, 0, [M, H], target_memory=pl.MemorySpace.Vec)
        right = pl.tile.extract(g, 0, H, [M, H], target_memory=pl.MemorySpace.Vec)
        cat = pl.tile.concat(left, right)
        mix = pl.add(pl.add(q, cat), h)
        # element edits
        s = pl.tile.read(mix, [1, 2])
        mix = pl.tile.write(mix, [3, 4], s)
        bcast = pl.tile.row_expand(mix, rmin)
        piece = pl.tile.col_expand(pl.tile.extract(bcast, 0, 0, [4, 8], target_memory=pl.MemorySpace.Vec), pl.tile.extract(cmax, 0, 0, [1, 8], target_memory=pl.MemorySpace.Vec))
        mix = pl.tile.assemble(mix, piece, [8, 8])
        aux = pl.store(bcast, [0, 0], aux)
        out = pl.store(mix, [0, 0], out)
        return out
