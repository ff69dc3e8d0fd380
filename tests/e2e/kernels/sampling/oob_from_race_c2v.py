# Default policy (--v2c fence, --c2v upstream). Split UP_DOWN, so the pl.tensor.write of idx runs on the
# cube; the vector lanes read idx (pl.tensor.read, which --c2v upstream leaves unfenced: a C2V RAW) and load
# rows of x from it. Reading the stale sampled fill puts that load out of bounds: a sample whose run races
# is not dropped as "a value the kernel does not take" (found by review: only n=0 was checked and it passed).
import pypto.language as pl

M = 32
K = 64
N = 64


@pl.program
class OobFromRaceC2v:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        x: pl.Tensor[[M, K], pl.FP32],
        a: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        idx: pl.InOut[pl.Tensor[[8], pl.INT32]],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        out2: pl.Out[pl.Tensor[[M, K], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        if n > 0:
            a_mat = pl.load(a, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
            w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
            w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
            z = pl.matmul(a_left, w_right)
            out = pl.store(z, [0, 0], out)
            d = pl.tensor.read(out, [0, 0])
            di = pl.cast(d, pl.INT32)
            pl.tensor.write(idx, [0], di * 0)
            r = pl.tensor.read(idx, [0])
            xb = pl.load(x, [r * M, 0], [M, K])
            e = pl.exp(xb)
            out2 = pl.store(e, [0, 0], out2)
        return out
