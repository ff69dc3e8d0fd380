# An orchestration passes two subscripts of one GM buffer (rows 0-15 and rows 8-23) to a mixed kernel that stores
# through one and has the cube read the other. DSL.md 5: a subscript of a tensor is a slice view, so this is
# pl.tensor.slice; the two parameters share rows 8-15 and the V2C handoff between them is a race under every
# policy (the expander pairs by parameter, as PyPTO's pass does). It was E-UNSUPPORTED ("'_slice' is neither a
# parameter nor a tensor created with pl.create_tensor"): a subscript lowered to a kernel's tile.slice (hunt13).
# RUN: check --v2c fence --schedules 5
# CHECK: FAIL:
# CHECK: error[E-RACE-RAW]: RAW on GM buf[8:16, 0:64]
# EXIT: 1
import pypto.language as pl


@pl.program
class HostSubscriptAlias:
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
        out = self.kern(a, b, buf[0:16, :], buf[8:24, :], out)
        return out
