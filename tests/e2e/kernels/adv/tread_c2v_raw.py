# C2V RAW through a scalar GM read: the cube stores a matmul result, the vector lane reads one element
# of it (pl.tensor.read) as a scale. Upstream's pass pairs a cube tile.store with a vector tile.load only, so
# this read stays unordered under --c2v upstream (a race); --c2v complete orders it.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP16], v: pl.Tensor[[16, 64], pl.FP32], scratch: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        scratch = pl.store(z, [0, 0], scratch)
        s = pl.tensor.read(scratch, [3, 5])
        t = pl.load(v, [0, 0], [16, 64])
        u = pl.mul(t, s)
        out = pl.store(u, [0, 0], out)
        return out
