# Integer atomic accumulation on the vector side: every block adds its INT32 rows into one histogram-like
# output; integer atomics wrap and commute, so the result is exact in every order.
import pypto.language as pl

R = 16
C = 64


@pl.program
class AtomicInt:
    @pl.function(type=pl.FunctionType.InCore)
    def atomic_int(
        self,
        x: pl.Tensor[[64, C], pl.INT32],
        acc: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    ) -> pl.Tensor[[R, C], pl.INT32]:
        blk = pl.tile.get_block_idx()
        t = pl.load(x, [blk * R, 0], [R, C])
        acc = pl.store(t, [0, 0], acc, atomic=pl.AtomicType.Add)
        acc = pl.store(t, [0, 0], acc, atomic=pl.AtomicType.Add)
        return acc
