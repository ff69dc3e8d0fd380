# A mixed kernel writes one element of a popped C2V tile (pl.tile.write, in place on hardware) and reads the
# result later: the expander's tfree must follow that read (it followed the write: an early free on a5).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            z = pl.matmul(x_left, x_right)
            zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
            zi = pl.tile.write(zv, [0, 0], 0.0)
            t = pl.load(x, [0, 0], [16, 16])
            t2 = pl.cast(t, pl.FP32)
            s = pl.add(zi, t2)
            out = pl.store(s, [i * 16, 0], out)
        return out
