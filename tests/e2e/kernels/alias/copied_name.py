# An orchestration that names one created tensor twice (v1 = buf, v2 = buf) and launches the kernel with both: the
# vector store through s1 and the cube load of s2 race on the same bytes. The launch planner followed launch results
# but not a plain copy, so this (and any launch given a copied name) was refused as 'neither a parameter nor a
# tensor created with pl.create_tensor'.
import pypto.language as pl


@pl.program
class G:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s1: pl.Out[pl.Tensor[[16, 64], pl.FP16]], s2: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
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
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.tensor.create([16, 64], dtype=pl.FP16)
        v1 = buf
        v2 = buf
        r = self.k(a, w, v1, v2, out)
        return r
