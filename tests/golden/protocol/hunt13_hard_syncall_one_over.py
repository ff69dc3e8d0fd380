# The same hard barrier on 25 blocks (a2a3: 24 clusters): the 25th block runs in a second wave. It was reported
# E-DEADLOCK alone (the first wave's 24 arrivals released the barrier, the 25th block waited alone); now the
# first wave waits for a block that never starts: E-DEADLOCK with E-OCCUPANCY, as a soft barrier on 25 blocks.
# RUN: check --v2c off --blocks 25 --schedules 2
# CHECK: FAIL: 2 distinct finding(s)
# CHECK: error[E-DEADLOCK]
# CHECK: error[E-OCCUPANCY]: a syncall over the launch's 25 blocks waits for blocks that never start
# EXIT: 1
import pypto.language as pl

NBLK = 25


@pl.program
class HardOneOver:
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
