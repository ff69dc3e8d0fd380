# pl.tile.gather_compare (pto-isa TGATHER compare form) in both forms PyPTO produces: the DSL's unpacking
# (`d, c = ...`, gt on FP32 with an offset, over a tile whose valid region is 6 x 50 of 8 x 64) and the printed
# IR's tuple binding indexed afterwards (`t = ...; d = t[0]; c = t[1]`, eq on INT32 with a typed scalar and
# UINT32 counts).
import pypto.language as pl


@pl.program
class GatherCompare:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[8, 64], pl.FP32], y: pl.Tensor[[8, 64], pl.INT32],
          d1: pl.Out[pl.Tensor[[8, 16], pl.INT32]], c1: pl.Out[pl.Tensor[[1, 8], pl.INT32]],
          d2: pl.Out[pl.Tensor[[8, 8], pl.INT32]], c2: pl.Out[pl.Tensor[[1, 8], pl.UINT32]]) -> pl.Tensor[[1, 8], pl.UINT32]:
        s = pl.load(x, [0, 0], [8, 64], valid_shape=[6, 50])
        tmp = pl.tile.create([1, 256], dtype=pl.UINT8)
        idx, cnt = pl.tile.gather_compare(s, 2.0, tmp, cmp_mode="gt", offset=100, out_cols=16)
        d1_1 = pl.store(idx, [0, 0], d1)
        c1_1 = pl.store(cnt, [0, 0], c1)
        v = pl.load(y, [0, 0], [8, 64])
        k: pl.Scalar[pl.INT32] = pl.tile.read(v, [0, 0])
        t: pl.Tuple[pl.Tile[[8, 8], pl.INT32, pl.Mem.Vec], pl.Tile[[1, 8], pl.UINT32, pl.Mem.Vec]] = pl.tile.gather_compare(
            v, k, tmp, cmp_mode=0, offset=0, out_cols=8, count_dtype=pl.UINT32)
        e: pl.Tile[[8, 8], pl.INT32, pl.Mem.Vec] = t[0]
        n: pl.Tile[[1, 8], pl.UINT32, pl.Mem.Vec] = t[1]
        d2_1 = pl.store(e, [0, 0], d2)
        c2_1 = pl.store(n, [0, 0], c2)
        return c2_1
