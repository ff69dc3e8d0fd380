# A loop that holds only vector work plus a hand-written barrier (fence + syncall of every core) after
# each iteration's store; the cube reads the scratch after the loop. The barrier is SHARED: the cube must
# run the loop too (with only the barrier in it), or the vector waits at the barrier forever.
import pypto.language as pl

M = 32
R = 16
K = 64
N = 64


@pl.program
class SharedBarrierLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def shared_barrier_loop(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        for i in pl.range(2):
            t = pl.load(x, [i * R, 0], [R, K])
            s = pl.mul(t, t)
            scratch = pl.store(s, [i * R, 0], scratch)
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
        s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
