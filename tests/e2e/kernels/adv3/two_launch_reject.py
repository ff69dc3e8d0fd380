# Two launches: only the second kernel has a V2C dependency. Checking the first launch expanded the whole
# program, so --v2c reject printed the second kernel's E-V2C-UNFENCED twice (once per launch).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def first(self, a: pl.Tensor[[16, 64], pl.FP16], mid: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.adds(t, 1.0)
        mid = pl.store(u, [0, 0], mid)
        return mid

    @pl.function(type=pl.FunctionType.InCore)
    def second(self, mid: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(mid, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [0, 0], scratch)
        g = pl.load(scratch, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mid = pl.tensor.create([16, 64], dtype=pl.FP16)
        scratch = pl.tensor.create([16, 64], dtype=pl.FP16)
        m = self.first(a, mid)
        r = self.second(m, w, scratch, out)
        return r
