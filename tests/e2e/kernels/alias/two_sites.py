# One kernel launched twice: with a buffer and its reshape (sharing bytes), then with two separate buffers.
# cvsim checks a kernel on one binding of its tensors, so this stays refused (E-UNSUPPORTED) rather than
# checked on either binding alone.
import pypto.language as pl


@pl.program
class TwoSites:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]], r: pl.Tensor[[2, 8, 64], pl.FP16], out: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s = pl.store(u, [0, 0], s)
        g = pl.load(r, [1, 0, 0], [1, 8, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        buf = pl.tensor.create([16, 64], dtype=pl.FP16)
        view = pl.tensor.reshape(buf, [2, 8, 64])
        o = self.k(a, w, buf, view, out)
        buf2 = pl.tensor.create([16, 64], dtype=pl.FP16)
        other = pl.tensor.create([2, 8, 64], dtype=pl.FP16)
        o2 = self.k(a, w, buf2, other, o)
        return o2
