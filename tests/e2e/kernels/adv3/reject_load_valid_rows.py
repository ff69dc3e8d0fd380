# The vector side stores rows 16-31 of scratch; the cube loads a 32-row window from row 0 whose valid_shape
# is its first 16 rows, so it reads rows 0-15 only (pl.tile.load reads the valid region from GM). No V2C
# dependency: --v2c reject must accept it (it took the load's window as all 32 rows).
import pypto.language as pl


@pl.program
class LoadValidRows:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [16, 0], scratch)
        g = pl.load(scratch, [0, 0], [32, 64], valid_shape=[16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, wr)
        out = pl.store(z, [0, 0], out)
        return out
