# The cube's syncall is hard and the vector lanes' is soft: a hard (FFTS) barrier and a soft barrier (an atomic
# counter in a GM workspace) are different mechanisms, so neither ever completes and the launch hangs on the
# board. cvsim kept one barrier per core type, so the hard arrival completed the soft episode: PASS on the full
# chip, and even PASS on 2 blocks (the hard barrier below full occupancy). Now each mode is its own barrier.
# RUN: check --blocks 24 --schedules 3
# CHECK: error[E-DEADLOCK]
# CHECK-NOT: PASS
# EXIT: 1
import pypto.language as pl


@pl.program
class HardMeetsSoft:
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
