# As hard_syncall_one_block_full_launch.py on 4 of the chip's 48 AIV cores (a vector-only kernel: one block per AIV
# core): the hard barrier also waits for cores never launched, E-OCCUPANCY beside the deadlock.
# RUN: check --blocks 4 --schedules 5
# CHECK: FAIL: 2 distinct finding(s)
# CHECK-NEXT: error[E-DEADLOCK]
# CHECK: error[E-OCCUPANCY]: a hard syncall waits for every core of the chip (48 AIV cores)
# EXIT: 1
import pypto.language as pl

NBLK = 24


@pl.program
class BranchBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def bb(
        self,
        a: pl.Tensor[[NBLK * 16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[NBLK * 16, 64], pl.FP32]],
    ) -> pl.Tensor[[NBLK * 16, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        t = pl.load(a, [blk * 16, 0], [16, 64])
        u = pl.add(t, t)
        if blk == 0:
            pl.system.syncall(core_type="aiv_only")
        out = pl.store(u, [blk * 16, 0], out)
        return out
