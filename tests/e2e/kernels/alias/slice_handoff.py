# A GM buffer and a constant pl.tensor.slice of it (rows 8-23) passed as two parameters of a mixed kernel: the
# vector lane stores rows 8-23 through `s`, the cube lane loads them back through `q` at offset 0, after a
# hand-written sync_set / sync_wait pair. One GM tensor, `q` a view at row 8 of it: clean, and the cube reads
# what the vector wrote.
import pypto.language as pl


@pl.program
class SliceHandoff:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s: pl.Out[pl.Tensor[[32, 64], pl.FP16]], q: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s = pl.store(u, [8, 0], s)
        pl.system.fence()
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type="aic")
        g = pl.load(q, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.tensor.create([32, 64], dtype=pl.FP16)
        part = pl.tensor.slice(buf, [16, 64], [8, 0])
        o = self.k(a, w, buf, part, out)
        return o
