# A buffer and a pl.tensor.reshape of a slice of it (rows 8-23 as [2, 8, 64]): cvsim binds aliasing parameters
# only as the tensor, a reshape of all of it or a constant slice of it, so this launch stays refused
# (E-UNSUPPORTED), never checked as two tensors.
import pypto.language as pl


@pl.program
class ReshapeOfSlice:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s: pl.Out[pl.Tensor[[32, 64], pl.FP16]], r: pl.Tensor[[2, 8, 64], pl.FP16], out: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s = pl.store(u, [8, 0], s)
        g = pl.load(r, [1, 0, 0], [1, 8, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        buf = pl.tensor.create([32, 64], dtype=pl.FP16)
        part = pl.tensor.slice(buf, [16, 64], [8, 0])
        view = pl.tensor.reshape(part, [2, 8, 64])
        o = self.k(a, w, buf, view, out)
        return o
