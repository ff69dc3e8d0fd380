# Printed-IR style: a kernel alone (no orchestration calls it) whose dimension is `n__ssa_v0 + 16`, printed
# with pl.const(16, pl.INDEX), over a name that is not a module-level pl.dynamic symbol. The name is a dynamic
# dimension of the launch: bound by --dim n__ssa_v0=V, else the documented default (with a note; an --input
# file binds only a dimension that is the bare name). The kernel copies the last 16 rows of x, so the offset
# depends on the value.
import pypto.language as pl


@pl.program
class SymDimKernel:
    @pl.function(type=pl.FunctionType.InCore)
    def tail(
        x: pl.Tensor[[n__ssa_v0 + pl.const(16, pl.INDEX), 32], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [n__ssa_v0, 0], [16, 32])
        y = pl.tile.store(t, [0, 0], y)
        return y
