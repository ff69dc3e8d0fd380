# The clean twin of hunt11_barrier_soft_two_workspaces.py: both sides count in ws1, one soft barrier, and the
# fence before it publishes the vector lanes' scratch rows to the cube.
# RUN: check --blocks 2 --schedules 3
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class SoftOneWorkspace:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]], ws1: pl.InOut[pl.Tensor[[64], pl.INT32]], ws2: pl.InOut[pl.Tensor[[64], pl.INT32]]):
        blk = pl.tile.get_block_idx()
        pl.system.syncall(core_type="mix", mode="soft", gm_workspace=ws1)
        s_mat = pl.load(scratch, [blk * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [blk * 16, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]], ws1: pl.InOut[pl.Tensor[[64], pl.INT32]], ws2: pl.InOut[pl.Tensor[[64], pl.INT32]]) -> pl.Tensor[[384, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * 16, 0], [16, 64])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [blk * 16, 0], scratch)
        pl.system.fence()
        pl.system.syncall(core_type="mix", mode="soft", gm_workspace=ws1)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]], ws1: pl.InOut[pl.Tensor[[64], pl.INT32]], ws2: pl.InOut[pl.Tensor[[64], pl.INT32]]) -> pl.Tensor[[384, 64], pl.FP32]:
        self.k_aic(a, b, scratch, out, ws1, ws2)
        r = self.k_aiv(a, b, scratch, out, ws1, ws2)
        return r
