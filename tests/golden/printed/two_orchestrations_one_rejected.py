# Two Orchestration functions and no --entry, the second of which launches a kernel with a slice of a buffer and a
# reshape of that slice as two output parameters (aliasing arguments cvsim cannot bind as views of one tensor stay
# refused: E-UNSUPPORTED): the first entry's kernels still get their verdicts and the second entry is reported not
# checked, labelled with its entry; exit 2 (docs/DECISIONS.md, "check takes every Orchestration function of a file").
# RUN: check --v2c fence --schedules 5
# CHECK: [first: scale]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [first: copy]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNSUPPORTED 47:68 'copy_twice' gets 'part' and 'view' as parameters
import pypto.language as pl


@pl.program
class TwoEntriesOneRejected:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 3.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def copy(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def copy_twice(x: pl.Tensor[[16, 64], pl.FP16], o1: pl.Out[pl.Tensor[[16, 64], pl.FP16]], o2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        o1_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], o1)
        o2_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], o2)
        return o2_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def first(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        r: pl.Tensor[[16, 64], pl.FP16] = self.scale(x, out)
        r2: pl.Tensor[[16, 64], pl.FP16] = self.copy(r, out2)
        return r2

    @pl.function(type=pl.FunctionType.Orchestration)
    def second(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        buf: pl.Tensor[[32, 64], pl.FP16] = pl.tensor.create([32, 64], dtype=pl.FP16)
        part: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(buf, [16, 64], [8, 0])
        view: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.reshape(part, [16, 64])
        r: pl.Tensor[[16, 64], pl.FP16] = self.copy_twice(x, part, view)
        return r
