# Odd split codes in split_aiv regions (both AIV lanes dispatched). odd_rows: 17 rows split 3 (up-down-odd)
# give lane 0 rows [0, 9) and lane 1 rows [9, 17) (static type: lane 0's larger half, [9, 64]); the gather
# with split 3 joins them back to 17 rows. odd_cols: 33 columns split 4 (left-right-odd), lane 0 gets 17
# columns, lane 1 16, each stores its part. Both sides of every transport carry the code.
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class OddSplit:
    @pl.function(type=pl.FunctionType.InCore)
    def odd_rows(self, a: pl.Tensor[[17, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[17, 64], pl.FP32]]) -> pl.Tensor[[17, 64], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [17, 64], target_memory=pl.MemorySpace.Mat)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            h = pl.aiv_shard(a_mat, split=3)
            h2 = pl.add(h, h)
            g = pl.aic_gather(h2, split=3)
        g_left = pl.move(g, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(g_left, b_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def odd_cols(self, a: pl.Tensor[[16, 33], pl.FP16], out: pl.Out[pl.Tensor[[16, 33], pl.FP16]]) -> pl.Tensor[[16, 33], pl.FP16]:
        a_mat = pl.load(a, [0, 0], [16, 33], target_memory=pl.MemorySpace.Mat)
        for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            h = pl.aiv_shard(a_mat, split=4)
            h2 = pl.mul(h, h)
            out = pl.store(h2, [0, lane * 17], out)
        return out
# CHECK:     def odd_rows_aic(
# CHECK:         pl.tile.tpush_to_aiv(a_mat, split=3)
# CHECK-NEXT:         g: pl.Tile[[17, 64], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=3)
# CHECK:     def odd_rows_aiv(
# CHECK:         pl.func_attr({'split_aiv': True, 'dual_aiv_dispatch': True})
# CHECK:         h: pl.Tile[[9, 64], pl.FP16, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=3)
# CHECK-NEXT:         h2: pl.Tile[[9, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(h, h)
# CHECK-NEXT:         pl.system.tfree_to_aic(h)
# CHECK-NEXT:         pl.tile.tpush_to_aic(h2, split=3)
# CHECK:     def odd_cols_aic(
# CHECK:         pl.tile.tpush_to_aiv(a_mat, split=4)
# CHECK:     def odd_cols_aiv(
# CHECK:         pl.func_attr({'split_aiv': True, 'dual_aiv_dispatch': True})
# CHECK:         lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK:         h: pl.Tile[[16, 17], pl.FP16, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=4)
# CHECK:         out: pl.Tensor[[16, 33], pl.FP16] = pl.tile.store(h2, [0, lane * 17], out)
