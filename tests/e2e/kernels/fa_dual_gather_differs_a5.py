# A hand-written split program: a dual-dispatch AIV function whose two lanes push different tiles (lane-dependent) into one
# V2C split-0 slot (on a5 both lanes run it in full); the cube pops it once.
import pypto.language as pl


@pl.program
class DualGather:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def cube(x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name="gather_buf", size=8192, base=-1)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), buf, dir_mask=2, slot_size=2048, id=0)
        xs: pl.Tile[[16, 32], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0, id=0)
        wm: pl.Tile[[32, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [32, 16], [32, 16], target_memory=pl.Mem.Mat)
        xl: pl.Tile[[16, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(xs, target_memory=pl.Mem.Left)
        wr: pl.Tile[[32, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(wm, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl, wr)
        pl.system.tfree_to_aiv(xs, id=0)
        out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(acc, [0, 0], y)
        return out

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def vec(x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"dual_aiv_dispatch": True})
        peer: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name="gather_buf", peer_func="cube")
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), peer, dir_mask=2, slot_size=2048, id=0)
        xt: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        sq: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(xt, pl.cast(lane, pl.FP32))
        nz: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)] = pl.tile.move(
            sq, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major
        )
        pl.tile.tpush_to_aic(nz, split=0, id=0)

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def group(x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out: pl.Tensor[[16, 16], pl.FP32] = self.cube(x, w, y)
        self.vec(x, w, y)
        return out

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out: pl.Tensor[[16, 16], pl.FP32] = self.group(x, w, y)
        return out
