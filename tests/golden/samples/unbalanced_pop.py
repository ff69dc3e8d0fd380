# The printed style of the sample kernel unbalanced_pop (parse + check + print, no expansion).
# RUN: print %shared/kernels/unbalanced_pop.py

# CHECK: # pypto.program: UnbalancedPop
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class UnbalancedPop:
# CHECK:     @pl.function(type=pl.FunctionType.AIC)
# CHECK:     def once_aic(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='once_c2v_slot_buffer', peer_func='once_aiv')
# CHECK:         pl.system.aic_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
# CHECK:         x_mat: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
# CHECK:         x_left: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
# CHECK:         x_right: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(x_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, x_right)
# CHECK:         pl.tile.tpush_to_aiv(z, split=0)
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def once_aiv(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='once_c2v_slot_buffer', size=2048, base=pl.AUTO)
# CHECK:         pl.system.aiv_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
# CHECK:         first: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
# CHECK:         pl.system.tfree_to_aic(first)
# CHECK:         second: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
# CHECK:         total: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(first, second)
# CHECK:         pl.system.tfree_to_aic(second)
# CHECK:         out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(total, [0, 0], out)
# CHECK:         return out
# CHECK:     @pl.function(type=pl.FunctionType.Group)
# CHECK:     def once(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         self.once_aic(x, out)
# CHECK:         result: pl.Tensor[[16, 16], pl.FP32] = self.once_aiv(x, out)
# CHECK:         return result
