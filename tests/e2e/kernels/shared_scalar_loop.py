# A loop that holds only vector work plus a scalar it carries (the next row offset); the cube uses the
# loop's final offset after it. The scalar is SHARED: the cube must run the loop's scalar part too, or it
# has no (or a stale) offset and reads the wrong window.
import pypto.language as pl

M = 48
R = 16
K = 64
N = 64


@pl.program
class SharedScalarLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def shared_scalar_loop(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        a: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        y: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[R, N], pl.FP32]],
    ) -> pl.Tensor[[R, N], pl.FP32]:
        for i, (off,) in pl.range(2, init_values=(0,)):
            t = pl.load(x, [off, 0], [R, K])
            s = pl.add(t, t)
            y = pl.store(s, [off, 0], y)
            nxt = off + R
            last = pl.yield_(nxt)
        a_mat = pl.load(a, [last, 0], [R, K], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(a_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
