# Printed-IR style (after inlining): the kernel's dimensions are expressions over `rows__ssa_v0`, a variable
# of the orchestration, not a module-level pl.dynamic symbol. cvsim reads it as a dynamic dimension of the
# launch: the orchestration passes x of shape [T, 64] for x__ssa_v0: [rows__ssa_v0, 64], so rows__ssa_v0 = T,
# and out has 2 * T rows. The kernel writes the first and the last 16 rows of out, so a
# wrong value of rows__ssa_v0 (0, or any other than T) gives E-OOB or a shape mismatch, never a clean verdict.
import pypto.language as pl

T = pl.dynamic("T")


@pl.program
class SymDimCaller:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        x__ssa_v0: pl.Tensor[[rows__ssa_v0, 64], pl.FP32],
        out__ssa_v0: pl.Out[pl.Tensor[[rows__ssa_v0 * 2, 64], pl.FP32]],
    ) -> pl.Tensor[[rows__ssa_v0 * 2, 64], pl.FP32]:
        xv__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64])
        y__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(xv__tile, 2.0)
        out__ssa_v1: pl.Tensor[[rows__ssa_v0 * 2, 64], pl.FP32] = pl.tile.store(y__tile, [0, 0], out__ssa_v0)
        out__ssa_v2: pl.Tensor[[rows__ssa_v0 * 2, 64], pl.FP32] = pl.tile.store(y__tile, [rows__ssa_v0 * 2 - 16, 0], out__ssa_v1)
        return out__ssa_v2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[T, 64], pl.FP32], out: pl.Out[pl.Tensor[[T * 2, 64], pl.FP32]]) -> pl.Tensor[[T * 2, 64], pl.FP32]:
        r: pl.Tensor[[T * 2, 64], pl.FP32] = self.scale(x, out)
        return r
