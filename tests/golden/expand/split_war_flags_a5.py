# a5 + split UP_DOWN, loop-carried WAR (issue 10 class 7): flags are 1:1, so the cube sets the flag once per
# AIV lane (ids 0 and 16, priming set and in-loop set) and each lane waits on its own id, chosen by subblock
# index. One cube set would reach AIV0 only and leave AIV1 waiting forever.
# RUN: expand --target a5
import pypto.language as pl

B = 4
M = 32
K = 64
N = 64


@pl.program
class SplitLoop:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def split_loop(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[B * M, N], pl.FP32]],
    ) -> pl.Tensor[[B * M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(B):
            xb = pl.load(x, [0, i * K], [M, K])
            t = pl.add(xb, xb)
            scratch = pl.store(t, [0, 0], scratch)
            s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, w_right)
            out = pl.store(z, [i * M, 0], out)
        return out
# CHECK:     def split_loop_aic(
# CHECK:         pl.system.sync_set(0, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK-NEXT:         pl.system.sync_set(16, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK-NEXT:         for i in pl.range(4):
# CHECK:             s_mat: pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [32, 64], target_memory=pl.Mem.Mat)
# CHECK-NEXT:             pl.system.sync_set(0, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK-NEXT:             pl.system.sync_set(16, pipe=pl.PipeType.MTE2, core_type='aic')
# CHECK:     def split_loop_aiv(
# CHECK-NOT: system.fence()
# CHECK:             _lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT:             if _lane == 0:
# CHECK-NEXT:                 pl.system.sync_wait(0, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK-NEXT:             else:
# CHECK-NEXT:                 pl.system.sync_wait(16, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK-NEXT:             scratch: pl.Tensor[[32, 64], pl.FP16] = pl.tile.store(t, [subblock_idx * 16, 0], scratch)
# CHECK:             pl.system.fence()
# CHECK-NEXT:             pl.tile.tpush_to_aic(t_nz, split=1)
# CHECK:         if _lane_1 == 0:
# CHECK-NEXT:             pl.system.sync_wait(0, pipe=pl.PipeType.MTE3, core_type='aiv')
# CHECK-NEXT:         else:
# CHECK-NEXT:             pl.system.sync_wait(16, pipe=pl.PipeType.MTE3, core_type='aiv')
