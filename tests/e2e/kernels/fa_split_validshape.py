# A hand-written split (UP_DOWN) C2V kernel that narrows a vector tile with set_validshape(t, 16, 8) before
# storing it. Halving the function gives each lane 8 of the 16 rows: the row extent 16 spans both lanes,
# so each lane's set_validshape keeps its own 8 rows (as PyPTO's SplitVectorKernel localizes it), and
# lane 1 stores rows [8, 16), columns [0, 8) — inside `out`.
import pypto.language as pl


@pl.program
class SplitValidShape:
    @pl.function(type=pl.FunctionType.AIC)
    def narrow_aic(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        peer: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='c2v_buf', peer_func='narrow_aiv')
        pl.system.aic_initialize_pipe(peer, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024)
        a_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
        pl.tile.tpush_to_aiv(acc, split=1)

    @pl.function(type=pl.FunctionType.AIV)
    def narrow_aiv(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='c2v_buf', size=4096, base=8192)
        pl.system.aiv_initialize_pipe(buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024)
        popped: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        inc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(popped, 1.0)
        narrow: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 8])] = pl.tile.set_validshape(inc, 16, 8)
        pl.system.tfree_to_aic(popped)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(narrow, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Group)
    def narrow(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.narrow_aic(a, b, out)
        r: pl.Tensor[[16, 16], pl.FP32] = self.narrow_aiv(a, b, out)
        return r
