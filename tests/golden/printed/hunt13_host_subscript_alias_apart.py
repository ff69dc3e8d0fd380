# The clean twin of hunt13_host_subscript_alias_overlap.py: the orchestration's subscripts are rows 0-15 and rows
# 16-31 of one buffer (a subscript bound to a name first, the other inline), so the store and the cube's read
# never share a byte: PASS.
# RUN: check --v2c fence --schedules 5
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class HostSubscriptApart:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        b: pl.Tensor[[64, 64], pl.FP16],
        s1: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
        s2: pl.Tensor[[16, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a_t = pl.load(a, [0, 0], [16, 64])
        s = pl.add(a_t, a_t)
        s1 = pl.store(s, [0, 0], s1)
        s_mat = pl.load(s2, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, b_right)
        out = pl.store(z, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        b: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        buf = pl.create_tensor([32, 64], pl.FP16)
        lo = buf[0:16, :]
        out = self.kern(a, b, lo, buf[16:32, :], out)
        return out
