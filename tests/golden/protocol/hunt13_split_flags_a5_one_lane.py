# Both lanes of an UP_DOWN split store their half of the scratch and raise flag 0 on MTE3; the cube waits for
# flag 0 and reads the whole scratch. On a2a3 an AIC wait takes a set of each AIV (clean); on a5 flags are 1:1
# per AIV and event 0 is AIV0's, so AIV1's half is read unordered: a race on rows 16-31 (hunt13, agreement).
# RUN: check --v2c off --target a5 --schedules 5
# CHECK: FAIL:
# CHECK: error[E-RACE-RAW]: RAW on GM scratch[16:32, 0:64]
# EXIT: 1
import pypto.language as pl

M = 16
K = 64
N = 64
B = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kern(
        self,
        a: pl.Tensor[[2 * M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[2 * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[2 * M, N], pl.FP32]],
    ) -> pl.Tensor[[2 * M, N], pl.FP32]:
        a_t = pl.load(a, [0, 0], [2 * M, K])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [0, 0], scratch)
        pl.system.sync_set(0, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(0, pipe=pl.PipeType.MTE2, core_type="aic")
        s_mat = pl.load(scratch, [0, 0], [2 * M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [0, 0], out)
        return out
