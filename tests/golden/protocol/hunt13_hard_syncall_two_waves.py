# A hand-placed hard syncall on a launch of 48 blocks, twice the chip's 24 clusters (a2a3). The blocks run in two
# waves, and a hard barrier needs the block count to equal the cores (PyPTO's HardSyncallOccupancy: partial or
# over-occupancy deadlocks on device, AICore 507018). cvsim counted 24 arrivals per episode, so each wave released
# itself and `check` said PASS (hunt13); now the barrier waits for every launched block, as a soft one does, and
# the run reports the deadlock with E-OCCUPANCY ("blocks that never start").
# RUN: check --v2c off --blocks 48 --schedules 2
# CHECK: FAIL: 2 distinct finding(s)
# CHECK: error[E-DEADLOCK]
# CHECK: error[E-OCCUPANCY]: a syncall over the launch's 48 blocks waits for blocks that never start
# EXIT: 1
import pypto.language as pl

NBLK = 48


@pl.program
class HardTwoWaves:
    @pl.function(type=pl.FunctionType.InCore)
    def waves(
        self,
        a: pl.Tensor[[NBLK * 16, 64], pl.FP16],
        b: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[NBLK * 16, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[NBLK * 16, 64], pl.FP32]],
    ) -> pl.Tensor[[NBLK * 16, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * 16, 0], [16, 64])
        s = pl.add(a_t, a_t)
        scratch = pl.store(s, [blk * 16, 0], scratch)
        pl.system.fence()
        pl.system.syncall(core_type="mix")
        s_mat = pl.load(scratch, [blk * 16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [blk * 16, 0], out)
        return out
