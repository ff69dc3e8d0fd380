# A vector-only kernel is a single-AIV task: on a2a3 only AIV0 runs it (the lane-1 replay is PyPTO's dual
# dispatch of a *mixed* kernel, which ExpandMixedKernel marks dual_aiv_dispatch). Before, cvsim ran a lane-1
# replay here whose pl.tensor.read raced with AIV0's pl.tensor.write of the same element: a false E-RACE-RAW on
# pypto-lib's sparse-attention planner, in every schedule.
# RUN: check --schedules 10 --jobs 1
# CHECK: PASS: no finding in any explored schedule
# CHECK-NOT: AIV1
import pypto.language as pl


@pl.program
class Plan:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def plan_incore(mask__ssa_v0: pl.InOut[pl.Tensor[[8, 4], pl.INT32]], order__ssa_v0: pl.Out[pl.Tensor[[8, 4], pl.INT32]]) -> pl.Tensor[[8, 4], pl.INT32]:
        for t__idx_v0 in pl.range(8):
            pl.tensor.write(mask__ssa_v0, [t__idx_v0, 0], pl.cast(1, pl.INT32))
        for t__idx_v1 in pl.range(8):
            v__ssa_v0: pl.Scalar[pl.INT32] = pl.tensor.read(mask__ssa_v0, [t__idx_v1, 0])
            if 0 < pl.cast(v__ssa_v0, pl.INDEX):
                pl.tensor.write(order__ssa_v0, [t__idx_v1, 0], pl.cast(t__idx_v1, pl.INT32))
        return order__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def plan(self, mask__ssa_v0: pl.InOut[pl.Tensor[[8, 4], pl.INT32]], order__ssa_v0: pl.Out[pl.Tensor[[8, 4], pl.INT32]]) -> pl.Tensor[[8, 4], pl.INT32]:
        r__ssa_v0: pl.Tensor[[8, 4], pl.INT32] = self.plan_incore(mask__ssa_v0, order__ssa_v0)
        return r__ssa_v0
