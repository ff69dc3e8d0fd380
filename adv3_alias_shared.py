# Two launches of one mixed kernel share a GM workspace `ws`; the second consumes the first's output.
# The kernel returns y (its Out parameter), so y1 is ybuf1's bytes, disjoint from ws.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], ws: pl.InOut[pl.Tensor[[16, 64], pl.FP16]], y: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t = pl.load(x, [0, 0], [16, 64])
        u = pl.add(t, t)
        ws = pl.store(u, [0, 0], ws)
        g = pl.load(ws, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        zh = pl.cast(zv, pl.FP16)
        y = pl.store(zh, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], y2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ws = pl.tensor.create([16, 64], dtype=pl.FP16)
        ybuf1 = pl.tensor.create([16, 64], dtype=pl.FP16)
        y1 = self.k(a, w, ws, ybuf1)
        r = self.k(y1, w, ybuf1, y2)
        return r
