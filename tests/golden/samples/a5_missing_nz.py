# The printed style of the sample kernel a5_missing_nz (parse + check + print, no expansion).
# RUN: print %shared/kernels/a5_missing_nz.py

# CHECK: # pypto.program: MissingNz
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class MissingNz:
# CHECK:     @pl.function(type=pl.FunctionType.AIC)
# CHECK:     def mm_aic(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='mm_v2c_slot_buffer', size=1024, base=pl.AUTO)
# CHECK:         pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), ring, dir_mask=2, slot_size=512, slot_num=2)
# CHECK:         lhs: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
# CHECK:         lhs_left: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(lhs, target_memory=pl.Mem.Left)
# CHECK:         b_mat: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(lhs_left, b_right)
# CHECK:         pl.system.tfree_to_aiv(lhs)
# CHECK:         out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def mm_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='mm_v2c_slot_buffer', peer_func='mm_aic')
# CHECK:         pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), ring, dir_mask=2, slot_size=512, slot_num=2)
# CHECK:         t: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16])
# CHECK:         t2: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.add(t, t)
# CHECK:         pl.tile.tpush_to_aic(t2, split=0)
# CHECK:     @pl.function(type=pl.FunctionType.Group)
# CHECK:     def mm(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         self.mm_aic(a, b, out)
# CHECK:         self.mm_aiv(a, b, out)
# CHECK:         return out
