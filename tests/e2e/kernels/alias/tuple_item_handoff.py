# A launch returns a tuple (k0's two Out parameters) and the orchestration takes its first element by index,
# `y = ret[0]` (PyPTO's printed form `x = ret__tmp_v0[0]`): y is buf. Passing buf and y to k binds both parameters
# to one GM tensor: k's vector lane writes rows of `s`, its cube lane reads them back through `r` after a
# hand-written sync_set / sync_wait pair (clean); without the pair it is a RAW race. The alias analysis took an
# indexed tuple element for a fresh tensor, so the race was a false PASS.
import pypto.language as pl


@pl.program
class TupleItemHandoff:
    @pl.function(type=pl.FunctionType.InCore)
    def k0(self, a: pl.Tensor[[16, 64], pl.FP16], b: pl.Out[pl.Tensor[[32, 64], pl.FP16]], c: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> tuple[pl.Tensor[[32, 64], pl.FP16], pl.Tensor[[32, 64], pl.FP16]]:
        t = pl.load(a, [0, 0], [16, 64])
        b = pl.store(t, [0, 0], b)
        b = pl.store(t, [16, 0], b)
        c = pl.store(t, [0, 0], c)
        c = pl.store(t, [16, 0], c)
        return b, c

    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s: pl.Out[pl.Tensor[[32, 64], pl.FP16]], r: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        s = pl.store(u, [blk * 16, 0], s)
        pl.system.fence()
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type="aic")
        g = pl.load(r, [blk * 16 + 8, 0], [8, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [blk * 8, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.tensor.create([32, 64], dtype=pl.FP16)
        buf3 = pl.tensor.create([32, 64], dtype=pl.FP16)
        ret = self.k0(a, buf, buf3)
        y = ret[0]
        o = self.k(a, w, buf, y, out, attrs={"core_num": 2})
        return o
