# A hard syncall only block 0 reaches, on a launch that fills the chip (24 clusters on a2a3): the other blocks
# never arrive, a deadlock. Not E-OCCUPANCY (a hard barrier launched on fewer clusters than the chip has): every
# cluster is launched (it was reported too, saying "launched on 24 ... launch with --blocks 24"; hunt10).
# RUN: check --blocks 24 --schedules 5
# CHECK: FAIL: 1 distinct finding(s)
# CHECK-NEXT: error[E-DEADLOCK]
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
