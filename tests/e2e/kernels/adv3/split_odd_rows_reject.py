# A UP_DOWN kernel with a 17-row vector tile (no even split) and a V2C dependency: --v2c reject reported
# E-V2C-UNFENCED (exit 1) and hid that the function cannot be split at all (E-UNSUPPORTED, exit 2, as under
# every other policy).
import pypto.language as pl

M = 17
K = 64
N = 64


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        xb = pl.load(x, [0, 0], [M, K])
        t = pl.add(xb, xb)
        scratch = pl.store(t, [0, 0], scratch)
        s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [0, 0], out)
        return out
