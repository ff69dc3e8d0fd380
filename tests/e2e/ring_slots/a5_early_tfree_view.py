# An expanded program (AIC + AIV + Group) whose vector side frees its ring slot too early: the
# popped tile zv is read only through the reshape view r, and tfree_to_aic(zv) runs right after the
# reshape, before r's last use (line 39). On a5 the tile is the slot itself, so the cube's push two
# iterations later rewrites what r still reads: a WAR race on the ring slot memory and wrong data.
# On a2a3 the pop copies the slot to a landing buffer first, so the early free is harmless there.
# pypto.program: SlowView
import pypto.language as pl


@pl.program
class SlowView:
    @pl.function(type=pl.FunctionType.AIC)
    def slow_aic(self, x: pl.Tensor[[64, 16], pl.FP16], y: pl.Tensor[[64, 128], pl.FP32], aux: pl.Out[pl.Tensor[[64, 128], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]):
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='slow_c2v_slot_buffer', peer_func='slow_aiv')
        pl.system.aic_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        for i in pl.range(4):
            x_mat: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [i * 16, 0], [16, 16], target_memory=pl.Mem.Mat)
            x_left: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
            x_right: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(x_mat, target_memory=pl.Mem.Right)
            z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, x_right)
            pl.tile.tpush_to_aiv(z, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def slow_aiv(self, x: pl.Tensor[[64, 16], pl.FP16], y: pl.Tensor[[64, 128], pl.FP32], aux: pl.Out[pl.Tensor[[64, 128], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='slow_c2v_slot_buffer', size=2048, base=pl.AUTO)
        pl.system.aiv_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        for i in pl.range(4):
            zv: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
            r: pl.Tile[[32, 8], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(zv, [32, 8])
            pl.system.tfree_to_aic(zv)
            big: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [64, 128], target_memory=pl.Mem.Vec)
            _muls: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.muls(big, 0.001)
            h1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.exp(_muls)
            _muls_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h1, 0.001)
            h2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.exp(_muls_1)
            _muls_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h2, 0.001)
            h3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.exp(_muls_2)
            aux: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(h3, [0, 0], aux)
            e: pl.Tile[[32, 8], pl.FP32, pl.Mem.Vec] = pl.tile.muls(r, 0.5)
            e2: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(e, [16, 16])
            out: pl.Tensor[[64, 16], pl.FP32] = pl.tile.store(e2, [i * 16, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def slow(self, x: pl.Tensor[[64, 16], pl.FP16], y: pl.Tensor[[64, 128], pl.FP32], aux: pl.Out[pl.Tensor[[64, 128], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        self.slow_aic(x, y, aux, out)
        result: pl.Tensor[[64, 16], pl.FP32] = self.slow_aiv(x, y, aux, out)
        return result
