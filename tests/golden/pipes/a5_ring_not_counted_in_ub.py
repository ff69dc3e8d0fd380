# a5: the C2V ring (2 x 64 KiB) lives in the AIV's UB at its reservation, beside the live tiles: at
# `e = pl.exp(t)` 128 KiB of ring + 128 KiB of tiles > 248 KiB. E-CAPACITY (it passed: rings were not counted).
# RUN: check --target a5
# ERROR: E-CAPACITY 31:9 UB (Vec) in 'riu_aiv' needs 262144 bytes (256 KiB) here but holds 253952 bytes (248 KiB) on a5; live tiles: ring buffers 'riu_c2v_slot_buffer'
import pypto.language as pl

M = 128
K = 64
N = 128


@pl.program
class RingInUb:
    @pl.function(type=pl.FunctionType.InCore)
    def riu(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        a: pl.Tensor[[M, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        out2: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s = pl.matmul(x_left, w_right)
        s_vec = pl.move(s, target_memory=pl.MemorySpace.Vec)
        out = pl.store(s_vec, [0, 0], out)
        t = pl.load(a, [0, 0], [M, N])
        e = pl.exp(t)
        out2 = pl.store(e, [0, 0], out2)
        out2 = pl.store(t, [0, 0], out2)
        return out2
