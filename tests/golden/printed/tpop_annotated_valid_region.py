# A hand-written consumer declares the popped tile's run-time valid region in its annotation
# (pl.TileView(valid_shape=[rows, cols]) of scalar parameters), as PyPTO's C2V valid-shape tests do. The function
# has attr split and no split_aiv, so PyPTO's SplitVectorKernel halves it: each lane's popped tile is 8 rows with
# its part of the region, clamp(rows - 8 * lane, 0, 8), and the store of the halved tile is shifted by 8 * lane
# again (lane 1 at row 16: with rows = 8 it stores nothing). Before, cvsim bounded the popped tile by its full 16
# rows (lane 1 past the tensor at every sampled value: E-UNCHECKED), then (until hunt8b) took the body as already
# halved because it reads get_subblock_idx. rows = 12 gives lane 1 4 rows at row 16: a real E-OOB.
# RUN: run --entry pair --input rows=8 --input cols=32
# CHECK: outputs: equal to the reference (1 tensor, bit-exact)
# CHECK: findings: none
import pypto.language as pl


@pl.program
class PoppedRegion:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def producer(
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[32, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        rows: pl.Scalar[pl.INDEX],
        cols: pl.Scalar[pl.INDEX],
    ):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        peer: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="ring0", peer_func="consumer")
        pl.system.aic_initialize_pipe(peer, pl.const(0, pl.INT32), dir_mask=1, slot_size=2048)
        xm: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat)
        wm: pl.Tile[[32, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        xl: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(xm, target_memory=pl.Mem.Left)
        wr: pl.Tile[[32, 32], pl.FP16, pl.Mem.Right] = pl.tile.move(wm, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl, wr)
        part: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[rows, cols])] = pl.tile.set_validshape(acc, rows, cols)
        pl.tile.tpush_to_aiv(part, split=1)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def consumer(
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[32, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        rows: pl.Scalar[pl.INDEX],
        cols: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="ring0", size=8192, base=0)
        pl.system.aiv_initialize_pipe(buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=2048)
        lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        got: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows, cols])] = pl.tile.tpop_from_aic(split=1)
        twice: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows, cols])] = pl.tile.muls(got, 2.0)
        pl.system.tfree_to_aic(got)
        y2: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(twice, [lane * 8, 0], y)
        return y2

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def pair(
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[32, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        rows: pl.Scalar[pl.INDEX],
        cols: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        self.producer(x, w, y, rows, cols)
        r: pl.Tensor[[16, 32], pl.FP32] = self.consumer(x, w, y, rows, cols)
        return r
