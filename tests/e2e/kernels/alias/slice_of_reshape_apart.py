# The same launch with row 0 of the reshape (buf[0, 0:64]): nothing is shared with s2 (columns 64-127), clean.
import pypto.language as pl


@pl.program
class SliceOfReshape:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[1, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s1: pl.Out[pl.Tensor[[1, 64], pl.FP16]], s2: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [1, 64])
        u = pl.add(t, t)
        s1 = pl.store(u, [0, 0], s1)
        g = pl.load(s2, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[1, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.tensor.create([32, 128], dtype=pl.FP16)
        b2 = pl.tensor.reshape(buf, [64, 64])
        v1 = pl.tensor.slice(b2, [1, 64], [0, 0])
        v2 = pl.tensor.slice(buf, [16, 64], [0, 64])
        r = self.k(a, w, v1, v2, out)
        return r
