# A loop whose step is a scalar parameter that is 0 at run time never ends on the device: the lanes report it
# (was: the lane walk skipped the loop silently, so its stores never happened and nothing said so).
# RUN: run --input n=0
# EXIT: 2
# CHECK: findings: 2
# CHECK: error[E-UNSUPPORTED]: loop_step_zero_at_run_time.py:26: the loop's step is 0
# CHECK: error[E-UNCHECKED]: outputs not compared
import pypto.language as pl

M = 16
K = 64
N = 64


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        for i in pl.range(0, 4, n):
            xb = pl.load(x, [0, 0], [M, K])
            t = pl.add(xb, xb)
            scratch = pl.store(t, [0, 0], scratch)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
