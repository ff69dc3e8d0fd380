# Cross-core transport and synchronisation ops of OPS.md: ring setup, tpush/tpop with an annotation or
# shape=/dtype= supplying the popped type, tfree, syncall, sync_set/sync_wait on named pipes, set_ffts,
# fence, cacheinvalid, get_subblock_idx, and a trailing attrs={...} on a call.
# RUN: print
import pypto.language as pl


@pl.program
class CrossCore:
    @pl.function(type=pl.FunctionType.AIV)
    def vec_side(self, x: pl.Tensor[[16, 16], pl.FP16], ws: pl.Tensor[[64], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c2v = pl.reserve_buffer(name="c2v_buf", size=4096, base=pl.AUTO)
        v2c = pl.system.import_peer_buffer(name="v2c_buf", peer_func="cube_side")
        pl.aiv_initialize_pipe(c2v, v2c, dir_mask=3, slot_size=1024, slot_num=4, id=0)
        pl.system.set_ffts(ws)
        lane = pl.tile.get_subblock_idx()
        z = pl.tpop_from_aic(split=0, shape=[16, 16], dtype=pl.FP32)
        t = pl.load(x, [0, 0], [16, 16])
        pl.tpush_to_aic(t, split=0, attrs={"note": "v2c"})
        pl.tfree_to_aic(z)
        pl.system.sync_set(1, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(2, pipe=pl.PipeType.MTE2, core_type="aiv")
        pl.system.syncall(core_type="aiv_only", mode="soft")
        pl.system.fence()
        pl.system.cacheinvalid(x)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIC)
    def cube_side(self, x: pl.Tensor[[16, 16], pl.FP16], ws: pl.Tensor[[64], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        c2v = pl.system.import_peer_buffer(name="c2v_buf", peer_func="vec_side")
        v2c = pl.system.reserve_buffer(name="v2c_buf", size=4096, base=pl.AUTO)
        pl.system.aic_initialize_pipe(c2v, v2c, dir_mask=3, slot_size=1024, slot_num=4, id=0)
        m: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tpop_from_aiv(split=0)
        l = pl.move(m, target_memory=pl.Mem.Left)
        r = pl.move(m, target_memory=pl.Mem.Right)
        acc = pl.matmul(l, r)
        pl.tfree_to_aiv(m)
        pl.tpush_to_aiv(acc, split=0)
        pl.system.sync_wait(1, pipe=pl.PipeType.MTE2, core_type="aic")
        pl.system.sync_set(2, pipe=pl.PipeType.FIX, core_type="aic")
        pl.system.syncall(core_type="mix", mode="hard")

    @pl.function(type=pl.FunctionType.Group)
    def group(self, x: pl.Tensor[[16, 16], pl.FP16], ws: pl.Tensor[[64], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.cube_side(x, ws, out)
        result = self.vec_side(x, ws, out)
        return result

# CHECK: # pypto.program: CrossCore
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class CrossCore:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def vec_side(self, x: pl.Tensor[[16, 16], pl.FP16], ws: pl.Tensor[[64], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         c2v: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='c2v_buf', size=4096, base=pl.AUTO)
# CHECK:         v2c: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='v2c_buf', peer_func='cube_side')
# CHECK:         pl.system.aiv_initialize_pipe(c2v, v2c, dir_mask=3, slot_size=1024, slot_num=4, id=0)
# CHECK:         pl.system.set_ffts(ws)
# CHECK:         lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK:         z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0, shape=[16, 16], dtype=pl.FP32)
# CHECK:         t: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16])
# CHECK:         pl.tile.tpush_to_aic(t, split=0, attrs={'note': 'v2c'})
# CHECK:         pl.system.tfree_to_aic(z)
# CHECK:         pl.system.sync_set(1, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK:         pl.system.sync_wait(2, pipe=pl.PipeType.MTE2, core_type='aiv')
# CHECK:         pl.system.syncall(core_type='aiv_only', mode='soft')
# CHECK:         pl.system.fence()
# CHECK:         pl.system.cacheinvalid(tensor=x)
# CHECK:         out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:         return out
# CHECK:     @pl.function(type=pl.FunctionType.AIC)
# CHECK:     def cube_side(self, x: pl.Tensor[[16, 16], pl.FP16], ws: pl.Tensor[[64], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
# CHECK:         c2v: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='c2v_buf', peer_func='vec_side')
# CHECK:         v2c: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c_buf', size=4096, base=pl.AUTO)
# CHECK:         pl.system.aic_initialize_pipe(c2v, v2c, dir_mask=3, slot_size=1024, slot_num=4, id=0)
# CHECK:         m: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK:         l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(m, target_memory=pl.Mem.Left)
# CHECK:         r: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(m, target_memory=pl.Mem.Right)
# CHECK:         acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(l, r)
# CHECK:         pl.system.tfree_to_aiv(m)
# CHECK:         pl.tile.tpush_to_aiv(acc, split=0)
# CHECK:         pl.system.sync_wait(1, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK:         pl.system.sync_set(2, pipe=pl.PipeType.FIX, core_type='aic')
# CHECK:         pl.system.syncall(core_type='mix', mode='hard')
# CHECK:     @pl.function(type=pl.FunctionType.Group)
# CHECK:     def group(self, x: pl.Tensor[[16, 16], pl.FP16], ws: pl.Tensor[[64], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         self.cube_side(x, ws, out)
# CHECK:         result: pl.Tensor[[16, 16], pl.FP32] = self.vec_side(x, ws, out)
# CHECK:         return result
