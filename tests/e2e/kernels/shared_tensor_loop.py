# A vector-only loop that carries the scratch tensor's SSA versions (acc -> acc2) and a cube load of the
# loop's result: the cube lane must keep the loop's tensor result (the same GM tensor) to load from it.
import pypto.language as pl

M = 32
R = 16
K = 64
N = 64


@pl.program
class SharedTensorLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def shared_tensor_loop(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        y: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[R, N], pl.FP32]],
    ) -> pl.Tensor[[R, N], pl.FP32]:
        for i, (acc,) in pl.range(2, init_values=(y,)):
            t = pl.load(x, [i * R, 0], [R, K])
            s = pl.add(t, t)
            acc2 = pl.store(s, [i * R, 0], acc)
            yy = pl.yield_(acc2)
        w_mat = pl.load(yy, [0, 0], [R, K], target_memory=pl.MemorySpace.Mat)
        w_left = pl.move(w_mat, target_memory=pl.MemorySpace.Left)
        w2 = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w2, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(w_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
