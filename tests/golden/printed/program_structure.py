# The structure PyPTO's printer emits at the ExpandMixedKernel boundary: kernels printed without `self`
# beside methods with `self`, level=/role= on the decorator, pl.func_attr (other pl enums kept verbatim), pl.Tuple, `with pl.scope()`
# (AUTO and MANUAL) in the Orchestration function, and the UINT32 and TASK_ID dtypes.
# RUN: print
# pypto.program: PrintedStructure
import pypto.language as pl


@pl.program
class PrintedStructure:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CORE_GROUP)
    def scale_rows(x: pl.Tensor[[16, 64], pl.FP32], factor: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]]:
        pl.func_attr({'split': pl.SplitMode.NONE, 'layout_hint': pl.TensorLayout.ND})
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, factor)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s, [0, 0], out)
        out_2: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out2)
        return out_1, out_2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.UINT32], tag: pl.Scalar[pl.TASK_ID], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.scope():
            with pl.scope(mode=pl.ScopeMode.MANUAL):
                r: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]] = self.scale_rows(x, pl.const(0.5, pl.FP32), out, out2)
                r0: pl.Tensor[[16, 64], pl.FP32] = r[0]
        return r0

# CHECK: # pypto.program: PrintedStructure
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class PrintedStructure:
# CHECK:     @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CORE_GROUP)
# CHECK:     def scale_rows(self, x: pl.Tensor[[16, 64], pl.FP32], factor: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]]:
# CHECK:         pl.func_attr({'split': pl.SplitMode.NONE, 'layout_hint': pl.TensorLayout.ND})
# CHECK:         t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
# CHECK:         s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, factor)
# CHECK:         out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s, [0, 0], out)
# CHECK:         out_2: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out2)
# CHECK:         return out_1, out_2
# CHECK:     @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.HOST, role=pl.Role.Orchestrator)
# CHECK:     def main(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.UINT32], tag: pl.Scalar[pl.TASK_ID], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         r: tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]] = self.scale_rows(x, pl.const(0.5, pl.FP32), out, out2)
# CHECK:         r0: pl.Tensor[[16, 64], pl.FP32] = r[0]
# CHECK:         return r0
