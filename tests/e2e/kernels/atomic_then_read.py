# Atomic accumulation followed by a plain read of the accumulator in the same kernel: another block's
# atomic add may still land after the read, so the read races with it (E-RACE).
import pypto.language as pl

R = 16
C = 64


@pl.program
class AtomicThenRead:
    @pl.function(type=pl.FunctionType.InCore)
    def atomic_then_read(
        self,
        x: pl.Tensor[[64, C], pl.INT32],
        acc: pl.Out[pl.Tensor[[R, C], pl.INT32]],
        snap: pl.Out[pl.Tensor[[64, C], pl.INT32]],
    ) -> pl.Tensor[[64, C], pl.INT32]:
        blk = pl.tile.get_block_idx()
        t = pl.load(x, [blk * R, 0], [R, C])
        acc = pl.store(t, [0, 0], acc, atomic=pl.AtomicType.Add)
        s = pl.load(acc, [0, 0], [R, C])
        snap = pl.store(s, [blk * R, 0], snap)
        return snap
