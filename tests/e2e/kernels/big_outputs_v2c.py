# Sparse outputs (docs/DECISIONS.md, "Sparse outputs"): a V2C hand-off through a 2 MiB Out scratch tensor, a
# 4 MiB Out result and a 4 MiB InOut accumulator, each touched in a few rows that straddle a 64 KiB page. Above
# the lazy threshold (1 MiB) the outputs come back as the pages the run wrote; with CVSIM_LAZY_INPUT_BYTES=off
# they are flat. Reports, verdicts and .npy files must be the same either way, race (--v2c off) or not.
import pypto.language as pl

R = 16384
M = 16
K = 64
N = 64


@pl.program
class BigOutputsV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def handoff(
        self,
        a: pl.Tensor[[M, K], pl.FP16],
        b: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[R, K], pl.FP16]],
        acc: pl.InOut[pl.Tensor[[R, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[R, N], pl.FP32]],
    ) -> pl.Tensor[[R, N], pl.FP32]:
        a_t = pl.load(a, [0, 0], [M, K])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [504, 0], scratch)
        s_mat = pl.load(scratch, [504, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [248, 0], out)
        c = pl.load(acc, [8000, 0], [M, N])
        c2 = pl.add(c, c)
        acc = pl.store(c2, [8000, 0], acc)
        return out
