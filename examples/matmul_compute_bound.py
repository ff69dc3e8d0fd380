# A compute-bound matmul for calibration: the operands are loaded once and the cube accumulates the same
# 128 x 128 x 256 fp16 product 64 times, so the MAD pipe dominates and the total cycle count should sit
# just above 64 x the MAD formula (HARDWARE.md "Cube").
import pypto.language as pl

M = 128
K = 128
N = 256
REPS = 64


@pl.program
class ComputeBound:
    @pl.function(type=pl.FunctionType.InCore)
    def mm(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(x_left, w_right)
        for i, (acc,) in pl.range(1, REPS, init_values=(acc0,)):
            nxt = pl.matmul_acc(acc, x_left, w_right)
            res = pl.yield_(nxt)
        out = pl.store(res, [0, 0], out)
        return out
