# hard_syncall_aiv_only_fills_the_aivs.py on 24 blocks: a standalone AIV kernel runs one block per AIV core, so 24
# blocks leave half of a2a3's 48 AIV cores unlaunched, and a hard barrier waits for every one of them (PyPTO's
# HardSyncallOccupancy; on hardware AICore error 507018). cvsim counted 24 arrivals and said PASS before.
# RUN: check --blocks 24 --schedules 3
# CHECK: FAIL: 2 distinct finding(s)
# CHECK-NEXT: error[E-DEADLOCK]
# CHECK: error[E-OCCUPANCY]: a hard syncall waits for every core of the chip (48 AIV cores)
# EXIT: 1
import pypto.language as pl

NBLK = 24


@pl.program
class AivOnlyBarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def shift(
        self,
        a: pl.Tensor[[NBLK * 16, 64], pl.FP32],
        mid: pl.Out[pl.Tensor[[NBLK * 16, 64], pl.FP32]],
        out: pl.Out[pl.Tensor[[NBLK * 16, 64], pl.FP32]],
    ) -> pl.Tensor[[NBLK * 16, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        t = pl.load(a, [blk * 16, 0], [16, 64])
        u = pl.add(t, t)
        mid = pl.store(u, [blk * 16, 0], mid)
        pl.system.syncall(core_type="aiv_only")
        nxt = (blk + 1) % NBLK
        v = pl.load(mid, [nxt * 16, 0], [16, 64])
        w = pl.add(v, t)
        out = pl.store(w, [blk * 16, 0], out)
        return out
