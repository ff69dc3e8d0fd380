# A kernel function calling another (self.helper(...) inside an InCore function, a call PyPTO's
# InlineFunctions removes before ExpandMixedKernel) runs the helper's statements in place: the mixed kernel
# expands, the outputs match the reference and `check` reaches a clean verdict (before, the lanes skipped the
# call and the run ended E-UNCHECKED).
# RUN: check --entry relay --schedules 20
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class KernelCall:
    @pl.function(type=pl.FunctionType.InCore)
    def doubled(x: pl.Tensor[[16, 64], pl.FP16]) -> pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        d: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, xv)
        return d

    @pl.function(type=pl.FunctionType.InCore)
    def relay(x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        d: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = self.doubled(x)
        s_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(d, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, w_right)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
        return out_1
