# The same hand-written split consumer storing at [lane * 16, 0] itself: PyPTO's SplitVectorKernel shifts the
# store of the halved tile by subblock_idx * 16 again, so lane 1 writes rows 32..47 of a 32-row tensor: E-OOB.
# Before (hunt8b): the body was taken as halved and the tile left whole: also E-OOB, at the wrong window
# (AIV1 [16:48], the whole tile).
# RUN: check --schedules 3
# EXIT: 1
# CHECK: error[E-OOB]
import pypto.language as pl


@pl.program
class HandSplitLane:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def cube(x: pl.Tensor[[32, 32], pl.FP16], w: pl.Tensor[[32, 32], pl.FP16], y: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        peer: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="ring0", peer_func="vec")
        pl.system.aic_initialize_pipe(peer, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096)
        xm: pl.Tile[[32, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        wm: pl.Tile[[32, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        xl: pl.Tile[[32, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(xm, target_memory=pl.Mem.Left)
        wr: pl.Tile[[32, 32], pl.FP16, pl.Mem.Right] = pl.tile.move(wm, target_memory=pl.Mem.Right)
        acc: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl, wr)
        pl.tile.tpush_to_aiv(acc, split=1)

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def vec(x: pl.Tensor[[32, 32], pl.FP16], w: pl.Tensor[[32, 32], pl.FP16], y: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="ring0", size=16384, base=0)
        pl.system.aiv_initialize_pipe(buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096)
        lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        got: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        e: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.exp(got)
        pl.system.tfree_to_aic(got)
        y2: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(e, [lane * 16, 0], y)
        return y2

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def pair(x: pl.Tensor[[32, 32], pl.FP16], w: pl.Tensor[[32, 32], pl.FP16], y: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        self.cube(x, w, y)
        r: pl.Tensor[[32, 32], pl.FP32] = self.vec(x, w, y)
        return r
