# A hard syncall only block 0 reaches, on a launch that fills the chip: a vector-only kernel runs one block per AIV
# core (PyPTO's HardSyncallOccupancy: "1 block = 1 AIV core"), so 48 blocks on a2a3's 24 clusters x 2 AIVs. The
# other blocks never arrive, a deadlock. Not E-OCCUPANCY (a hard barrier launched on fewer cores than the chip
# has): every AIV core is launched (it was reported too, saying "launched on 24 ... launch with --blocks 24";
# hunt10). At --blocks 24 half the AIV cores never arrive: hard_syncall_one_block_partial_launch.py.
# RUN: check --blocks 48 --schedules 5
# CHECK: FAIL: 1 distinct finding(s)
# CHECK-NEXT: error[E-DEADLOCK]
# EXIT: 1
import pypto.language as pl

NBLK = 48


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
