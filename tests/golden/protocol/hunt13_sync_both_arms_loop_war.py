# A loop whose body stores the scratch (vector), then a fence + syncall in BOTH arms of an if, then the cube
# reads it. The RAW in each iteration is ordered; the cube's read in iteration 0 and the vector's store in
# iteration 1 are not (both follow the same barrier): a loop-carried WAR, which reject reports (hunt13, agreement).
# RUN: check --v2c reject --schedules 5
# ERROR: E-V2C-UNFENCED 28 reads in an earlier iteration
# EXIT: 1
import pypto.language as pl

M = 16
K = 64
N = 64
B = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        for i in pl.range(2):
            a_t = pl.load(a, [0, 0], [M, K])
            s = pl.add(a_t, a_t)
            scratch = pl.store(s, [0, 0], scratch)
            if i == 0:
                pl.system.fence()
                pl.system.syncall(core_type="mix", mode="soft")
            else:
                pl.system.fence()
                pl.system.syncall(core_type="mix", mode="soft")
            s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
            b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
            z = pl.matmul(s_left, b_right)
            out = pl.store(z, [0, 0], out)
        return out
