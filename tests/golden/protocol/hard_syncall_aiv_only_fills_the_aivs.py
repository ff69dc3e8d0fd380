# A vector-only kernel (no cube: one AIV lane per block) with a hard aiv_only syncall between each block's store and
# its read of the next block's rows, launched on 48 blocks: on a2a3 that is one block per AIV core (24 clusters x 2),
# the full occupancy PyPTO's HardSyncallOccupancy asks of a standalone AIV kernel, so every block is resident, the
# barrier completes and orders the stores before the reads. cvsim ran it as 48 clusters in two waves; each wave
# released the barrier by itself (PASS by accident) before hunt13, then deadlocked (E-OCCUPANCY, a false alarm on
# PyPTO's own cross_core syncall system test). Twins: hard_syncall_aiv_only_half_the_aivs.py (24 blocks).
# RUN: check --blocks 48 --schedules 3
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl

NBLK = 48


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
