# The printed style of the sample kernel nonuniform_gather (parse + check + print, no expansion).
# RUN: print %shared/kernels/nonuniform_gather.py

# CHECK: # pypto.program: NonUniformGather
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class NonUniformGather:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def gather_rows(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         pl.func_attr({'split_aiv': True})
# CHECK:         for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):
# CHECK:             t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [aiv_id * 16, 0], [16, 64])
# CHECK:             t2: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(t, t)
# CHECK:             g: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.aic_gather(t2)
# CHECK:         g_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(g, target_memory=pl.Mem.Left)
# CHECK:         b_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(g_left, b_right)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
# CHECK:         return out
