# An already-expanded V2C kernel whose unsplit AIV function is marked dual_aiv_dispatch, as PyPTO's
# ExpandMixedKernel marks every unsplit AIV function on a2a3. The AIV scales x, pushes it to the cube and
# stores it to `scaled`; the cube multiplies it by w. On a2a3 PyPTO's SplitVectorKernel makes lane 1 a replay
# (handshakes only, no loads or stores), so there is no race; on a5 dual_aiv_dispatch runs the body on both
# lanes in full, so both push into one slot and both store `scaled` (a real WAW).
import pypto.language as pl


@pl.program
class DualNoSplit:
    @pl.function(type=pl.FunctionType.AIC)
    def scale_mm_aic(self, x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 32], pl.FP32],
                     scaled: pl.Out[pl.Tensor[[16, 32], pl.FP32]], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
        buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c_buf', size=4096, base=-1)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), buf, dir_mask=2, slot_size=2048, slot_num=2)
        s_mat: pl.Tile[[16, 32], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        s_left: pl.Tile[[16, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
        pl.system.tfree_to_aiv(s_mat)
        w_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [32, 32], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, w_right)
        out_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(acc, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def scale_mm_aiv(self, x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 32], pl.FP32],
                     scaled: pl.Out[pl.Tensor[[16, 32], pl.FP32]], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
        pl.func_attr({"dual_aiv_dispatch": True})
        imp: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='v2c_buf', peer_func='scale_mm_aic')
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), imp, dir_mask=2, slot_size=2048, slot_num=2)
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Vec)
        s: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        pl.tile.tpush_to_aic(s, split=0)
        scaled_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(s, [0, 0], scaled)

    @pl.function(type=pl.FunctionType.Group)
    def scale_mm(self, x: pl.Tensor[[16, 32], pl.FP32], w: pl.Tensor[[32, 32], pl.FP32],
                 scaled: pl.Out[pl.Tensor[[16, 32], pl.FP32]], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
        self.scale_mm_aic(x, w, scaled, out)
        self.scale_mm_aiv(x, w, scaled, out)
