# "Seems to order": the vector lane stores the scratch, fences, and meets a soft syncall(core_type="aic_only")
# before the cube reads it. An aic_only barrier has only the cube as participant, so nothing orders the vector's
# store before the cube's load: a V2C race (hunt13, agreement kept as a golden).
# RUN: check --v2c off --schedules 5
# CHECK: FAIL:
# CHECK: error[E-RACE-RAW]: RAW on GM scratch[0:16, 0:64]
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
        a_t = pl.load(a, [0, 0], [M, K])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [0, 0], scratch)
        pl.system.fence()
        pl.system.syncall(core_type="aic_only", mode="soft")
        s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [0, 0], out)
        return out
