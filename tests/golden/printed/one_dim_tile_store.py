# 1-D tiles in the printed style: a [64] window of a 1-D tensor loaded, scaled, and stored back into a 1-D
# tensor. The simulator held the tile as one row and stored a 2-D window into the 1-D tensor: a false
# E-OOB "window rank does not match the tensor" on every schedule (PyPTO's examples/utils/error_handling
# kernels are 1-D). The run equals the reference with no finding.
# RUN: run
# CHECK: outputs: equal to the reference (1 tensor, bit-exact)
# CHECK: findings: none
# pypto.program: OneDim
import pypto.language as pl


@pl.program
class OneDim:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def scale_incore_0(x__ssa_v0: pl.Tensor[[128], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[128], pl.FP32]]) -> pl.Tensor[[128], pl.FP32]:
        x__tile: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [64], [64], [64], target_memory=pl.Mem.Vec)
        y__tile: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(x__tile, 2.0)
        out__store: pl.Tensor[[128], pl.FP32] = pl.tile.store(y__tile, [0], out__ssa_v0)
        return out__store

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def scale(self, x__ssa_v0: pl.Tensor[[128], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[128], pl.FP32]]) -> pl.Tensor[[128], pl.FP32]:
        r__ssa_v0: pl.Tensor[[128], pl.FP32] = self.scale_incore_0(x__ssa_v0, out__ssa_v0)
        return r__ssa_v0
