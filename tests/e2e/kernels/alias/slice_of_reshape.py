# A slice of a pl.tensor.reshape of a tensor, passed beside a slice of the tensor itself: row 1 of the [64, 64]
# reshape of buf [32, 128] is buf[0, 64:128], which s2 (buf rows 0-15, columns 64-127) holds, so the vector
# store through s1 and the cube load of s2 race. cvsim took the slice's offsets as buf's own (buf[1, 0:64], apart
# from s2), bound each parameter to a tensor of its own and checked the launch clean.
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
        v1 = pl.tensor.slice(b2, [1, 64], [1, 0])
        v2 = pl.tensor.slice(buf, [16, 64], [0, 64])
        r = self.k(a, w, v1, v2, out)
        return r
