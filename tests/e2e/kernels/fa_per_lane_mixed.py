# A mixed kernel already in per-lane form (attr split_aiv, as PyPTO's LowerAutoVectorSplit leaves an
# auto-split function): every vector statement reads the lane index and each AIV lane handles its own
# 8 rows. The cube computes a @ w once; lane L takes rows [8L, 8L + 8) of the product (aiv_shard) and
# doubles them into z, and scales rows [8L, 8L + 8) of a into y. Both lanes run it in full; the
# reference must run both lanes too (it used to run lane 0 only and call lane 1's rows wrong).
import pypto.language as pl


@pl.program
class PerLaneMixed:
    @pl.function(type=pl.FunctionType.InCore)
    def per_lane(self, a: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 32], pl.FP32],
                 y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], z: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
        lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        a_mat: pl.Tile[[16, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        w_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [32, 32], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        w_right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, w_right)
        h: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(acc, split=1)
        h2: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(h, h)
        z_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(h2, [lane * 8, 0], z)
        t: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [lane * 8, 0], [8, 32], target_memory=pl.Mem.Vec)
        t3: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 3.0)
        y_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(t3, [lane * 8, 0], y)
        return z_1
