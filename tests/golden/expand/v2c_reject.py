# RUN: expand --v2c reject
# --v2c reject: the unordered V2C dependency is an error at the cube load (line 18), naming the tensor, the
# producer store's location (line 17) and the fix (the message names the file by the path it was given, so
# only the path-independent end is checked; tests/frontend/expand_test.cpp checks the tensor and the hint).
# ERROR: E-V2C-UNFENCED 18:9 v2c_reject.py:17:9 with nothing ordering them
import pypto.language as pl


@pl.program
class Reject:
    @pl.function(type=pl.FunctionType.InCore)
    def rej(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out
# EXIT: 1
