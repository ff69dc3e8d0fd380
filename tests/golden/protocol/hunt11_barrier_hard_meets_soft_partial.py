# As hunt11_barrier_hard_meets_soft.py on 2 of the 24 clusters: the cube's hard barrier also waits for the
# clusters never launched (it was PASS: the vector lanes' soft arrivals completed it).
# RUN: check --blocks 2 --schedules 3
# CHECK: error[E-DEADLOCK]
# CHECK: error[E-OCCUPANCY]
# EXIT: 1
import pypto.language as pl


@pl.program
class HardMeetsSoftPartial:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]]):
        blk = pl.tile.get_block_idx()
        pl.system.syncall(core_type="mix", mode="hard")
        s_mat = pl.load(scratch, [blk * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [blk * 16, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]]) -> pl.Tensor[[384, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * 16, 0], [16, 64])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [blk * 16, 0], scratch)
        pl.system.fence()
        pl.system.syncall(core_type="mix", mode="soft")
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(self, a: pl.Tensor[[384, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[384, 64], pl.FP16]], out: pl.Out[pl.Tensor[[384, 64], pl.FP32]]) -> pl.Tensor[[384, 64], pl.FP32]:
        self.k_aic(a, b, scratch, out)
        r = self.k_aiv(a, b, scratch, out)
        return r
