# A pl.tensor.view of buf [16, 128] FP16 as FP32 [16, 64], sliced at FP32 columns 48-63 (bytes 192-255 of each row: buf's
# FP16 columns 96-127), passed beside buf's columns 64-127: the vector store through s1 and the cube load of s2
# race. cvsim took the view's FP32 offsets as buf's FP16 coordinates (columns 48-63, apart from s2) and checked
# the launch clean; a view as another dtype is not a box of its source, so the launch is refused (E-UNSUPPORTED).
import pypto.language as pl


@pl.program
class G:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[64, 64], pl.FP16], s1: pl.Out[pl.Tensor[[16, 16], pl.FP32]], s2: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
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
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.tensor.create([16, 128], dtype=pl.FP16)
        b32: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.view(buf, [16, 64], [0, 0], dtype=pl.FP32)
        v1 = pl.tensor.slice(b32, [16, 16], [0, 48])
        v2 = pl.tensor.slice(buf, [16, 64], [0, 64])
        r = self.k(a, w, v1, v2, out)
        return r
