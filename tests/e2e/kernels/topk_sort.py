# Sort / merge / gather end to end on the vector core: sort32 of 4 blocks, a format-1 merge into one sorted
# list, the values and the permutation taken apart with gather_mask (P0101, P1010 as INT32 bits), the source
# gathered by that permutation, a format-2 merge of two separately sorted lists, row_argmax / col_argmin.
import pypto.language as pl


@pl.program
class TopkSort:
    @pl.function(type=pl.FunctionType.InCore)
    def topk(self, x: pl.Tensor[[1, 128], pl.FP32], idx: pl.Tensor[[1, 128], pl.UINT32],
             y: pl.Tensor[[2, 32], pl.FP32], vals: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
             perm: pl.Out[pl.Tensor[[1, 128], pl.INT32]], regathered: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
             merged: pl.Out[pl.Tensor[[1, 128], pl.FP32]], amax: pl.Out[pl.Tensor[[2, 1], pl.INT32]],
             amin: pl.Out[pl.Tensor[[1, 32], pl.INT32]]) -> pl.Tensor[[1, 128], pl.FP32]:
        xt = pl.load(x, [0, 0], [1, 128])
        it = pl.load(idx, [0, 0], [1, 128])
        runs = pl.tile.sort32(xt, it)
        srt = pl.tile.mrgsort(runs, block_len=64)
        v = pl.tile.gather_mask(srt, pl.tile.MaskPattern.P0101)
        p = pl.tile.gather_mask(srt, pl.tile.MaskPattern.P1010, output_dtype=pl.INT32)
        tmp = pl.tile.create([1, 128], dtype=pl.INT32)
        g = pl.tile.gather(xt, p, tmp)
        y0 = pl.load(y, [0, 0], [1, 32])
        y1 = pl.load(y, [1, 0], [1, 32])
        i32 = pl.load(idx, [0, 0], [1, 32])
        s0 = pl.tile.sort32(y0, i32)
        s1 = pl.tile.sort32(y1, i32)
        mtmp = pl.tile.create([1, 128], dtype=pl.FP32)
        m = pl.tile.mrgsort(s0, s1, tmp=mtmp)
        yt = pl.load(y, [0, 0], [2, 32])
        yscratch = pl.tile.create([2, 32], dtype=pl.FP32)
        am = pl.tile.row_argmax(yt, yscratch)
        an = pl.tile.col_argmin(yt, yscratch)
        vals_1 = pl.store(v, [0, 0], vals)
        perm_1 = pl.store(p, [0, 0], perm)
        re_1 = pl.store(g, [0, 0], regathered)
        merged_1 = pl.store(m, [0, 0], merged)
        amax_1 = pl.store(am, [0, 0], amax)
        amin_1 = pl.store(an, [0, 0], amin)
        return vals_1
