# The symbol is used only by the orchestration, and reaches the kernel through a call: it launches the kernel
# with row = N - 16. The vector stores rows [row, row + 16) of scratch and the cube reads rows [0, 16) (--v2c
# off): at the default N = 128 (row 112) they are disjoint, at N = 16 (row 0) they race.
import pypto.language as pl

N = pl.dynamic("N")


@pl.program
class RaceOrchDim:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[128, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[128, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [row, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [row, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[128, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[128, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        r = self.k(a, w, scratch, out, N - 16)
        return r
