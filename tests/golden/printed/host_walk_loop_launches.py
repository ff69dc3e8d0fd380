# An orchestration that launches one kernel in a loop, with a scalar computed from the loop variable and
# pl.tensor.dim (issue 11): the host walk gives each launch its own arguments, and check takes every distinct
# binding as a kernel check of its own. The last launch's window runs past the tensor (rows 60..75 of 64):
# only that binding has the finding (before the host walk the kernel was not checked at all, E-UNCHECKED).
# RUN: check --schedules 4
# EXIT: 1
# CHECK: [band row=0, rows=16]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [band row=20, rows=16]
# CHECK: PASS
# CHECK: [band row=40, rows=16]
# CHECK: PASS
# CHECK: [band row=60, rows=4]
# CHECK: E-OOB
# CHECK-NOT: PASS
import pypto.language as pl


@pl.program
class LoopLaunch:
    @pl.function(type=pl.FunctionType.InCore)
    def band(
        x: pl.Tensor[[64, 64], pl.FP16],
        row: pl.Scalar[pl.INDEX],
        rows: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP16]],
    ) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        out = pl.tile.store(y, [row, 0], out, shapes=[rows, 64])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        for i in pl.range(4):
            r: pl.Scalar[pl.INDEX] = i * 20
            k: pl.Scalar[pl.INDEX] = pl.min(16, n - r)
            out = self.band(x, r, k, out)
        return out
