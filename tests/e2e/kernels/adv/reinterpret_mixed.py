# A mixed kernel whose vector lane reads the popped C2V tile through pl.tile.reinterpret_view: the
# expander's tfree must follow the last read of the view (it followed the view statement: an early free
# of the a5 slot).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[48, 16], pl.INT32]]) -> pl.Tensor[[48, 16], pl.INT32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            z = pl.matmul(x_left, x_right)
            zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
            zi = pl.tile.reinterpret_view(zv, pl.INT32)
            t = pl.load(x, [0, 0], [16, 16])
            t2 = pl.cast(t, pl.INT32)
            s = pl.add(zi, t2)
            out = pl.store(s, [i * 16, 0], out)
        return out
