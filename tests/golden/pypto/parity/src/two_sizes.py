# parity fixture: one mixed kernel with a dynamic row count N, called at two sizes (16 and 32 rows). PyPTO
# prints one function and two calls; cvsim reads the second call through a per-call copy of the kernel
# (docs/DECISIONS.md, "A kernel called at two sizes gets one copy per size"), whose AIC/AIV halves parity
# compares with upstream's halves of the kernel.
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class TwoSizes:
    @pl.function(type=pl.FunctionType.InCore)
    def mm_exp(
        self,
        x: pl.Tensor[[N, 64], pl.BF16],
        w: pl.Tensor[[64, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[N, 64], pl.FP32]],
    ) -> pl.Tensor[[N, 64], pl.FP32]:
        a: pl.Tile[[16, 64], pl.BF16] = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        b: pl.Tile[[64, 64], pl.BF16] = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a, target_memory=pl.MemorySpace.Left)
        b_l0 = pl.move(b, target_memory=pl.MemorySpace.Right)
        c: pl.Tile[[16, 64], pl.FP32] = pl.matmul(a_l0, b_l0)
        e: pl.Tile[[16, 64], pl.FP32] = pl.exp(c)
        out = pl.store(e, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x16: pl.Tensor[[16, 64], pl.BF16],
        x32: pl.Tensor[[32, 64], pl.BF16],
        w: pl.Tensor[[64, 64], pl.BF16],
        o16: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        o32: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        o16 = self.mm_exp(x16, w, o16)
        o32 = self.mm_exp(x32, w, o32)
        return o32
