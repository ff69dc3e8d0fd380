# The twin of orchestration_call_manual_scope.py with deps=[tid0] on the reader: ordered, PASS through the call.
# RUN: check --entry main --schedules 2
# EXIT: 0
# CHECK: PASS (the file)
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def w(x: pl.Tensor[[16, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], s)
        return s1

    @pl.function(type=pl.FunctionType.InCore)
    def r(s: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def helper(self, x: pl.Tensor[[16, 64], pl.FP16], sc: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            ret0: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.w, x, sc)
            s1: pl.Tensor[[16, 64], pl.FP16] = ret0[0]
            tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
            ret1: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.r, s1, out, deps=[tid0])
            o1: pl.Tensor[[16, 64], pl.FP16] = ret1[0]
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        o: pl.Tensor[[16, 64], pl.FP16] = self.helper(x, scratch, out)
        return o
