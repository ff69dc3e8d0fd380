# The printed style parses too: fully qualified names, pl.Mem, annotations everywhere, pl.func_attr,
# typed constants, pl.AUTO, and it prints back unchanged.
# RUN: print
# pypto.program: Printed
import pypto.language as pl


@pl.program
class Printed:
    @pl.function(type=pl.FunctionType.AIV)
    def relay_aiv(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({'split': pl.SplitMode.NONE, 'dual_aiv_dispatch': False})
        ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='relay_c2v_slot_buffer', size=2048, base=pl.AUTO)
        pl.system.aiv_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        y: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(z, pl.const(0.5, pl.FP32))
        pl.system.tfree_to_aic(z)
        out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(y, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIC)
    def relay_aic(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        ring: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='relay_c2v_slot_buffer', peer_func='relay_aiv')
        pl.system.aic_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        x_mat: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        x_right: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(x_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, x_right)
        pl.tile.tpush_to_aiv(z, split=0)

    @pl.function(type=pl.FunctionType.Group)
    def relay(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.relay_aic(x, out)
        result: pl.Tensor[[16, 16], pl.FP32] = self.relay_aiv(x, out)
        return result

# CHECK: # pypto.program: Printed
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class Printed:
# CHECK:     @pl.function(type=pl.FunctionType.AIV)
# CHECK:     def relay_aiv(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         pl.func_attr({'split': pl.SplitMode.NONE, 'dual_aiv_dispatch': False})
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='relay_c2v_slot_buffer', size=2048, base=pl.AUTO)
# CHECK:         pl.system.aiv_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
# CHECK:         z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
# CHECK:         y: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(z, pl.const(0.5, pl.FP32))
# CHECK:         pl.system.tfree_to_aic(z)
# CHECK:         out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(y, [0, 0], out)
# CHECK:         return out
# CHECK:     @pl.function(type=pl.FunctionType.AIC)
# CHECK:     def relay_aic(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
# CHECK:         ring: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='relay_c2v_slot_buffer', peer_func='relay_aiv')
# CHECK:         pl.system.aic_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
# CHECK:         x_mat: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
# CHECK:         x_left: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
# CHECK:         x_right: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(x_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, x_right)
# CHECK:         pl.tile.tpush_to_aiv(z, split=0)
# CHECK:     @pl.function(type=pl.FunctionType.Group)
# CHECK:     def relay(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
# CHECK:         self.relay_aic(x, out)
# CHECK:         result: pl.Tensor[[16, 16], pl.FP32] = self.relay_aiv(x, out)
# CHECK:         return result
