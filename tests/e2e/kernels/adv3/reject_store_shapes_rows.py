# The shapes= twin of reject_store_valid_rows.py: the store writes the first 16 of the tile's 32 rows
# (shapes=[16, 64]) into rows 0-15; the cube reads rows 16-31. No V2C dependency: reject must accept it.
import pypto.language as pl


@pl.program
class StoreShapesRows:
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
        scratch = pl.store(u, [0, 0], scratch, shapes=[16, 64])
        g = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, wr)
        out = pl.store(z, [0, 0], out)
        return out
