# The vector side narrows a 32-row tile to its first 16 rows (set_validshape) and stores it into rows 0-15
# of scratch; the cube reads rows 16-31, which nothing in the kernel writes. No V2C dependency exists, so
# --v2c reject must accept it (it took the store's window as the tile's 32 physical rows), and fence/syncall
# insert nothing for it.
import pypto.language as pl


@pl.program
class StoreValidRows:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [32, 64])
        u = pl.add(t, t)
        v = pl.tile.set_validshape(u, 16, 64)
        scratch = pl.store(v, [0, 0], scratch)
        g = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, wr)
        out = pl.store(z, [0, 0], out)
        return out
