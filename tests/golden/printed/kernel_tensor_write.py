# A vector kernel that stores a row's maximum into a GM flag tensor with pl.tensor.write (PTO's store_scalar;
# PyPTO leaves it at the ExpandMixedKernel boundary), with the scalar forms the printer emits around it: a
# pl.cast of a comparison and pl.tensor.dim of a kernel tensor. Read and checked: the write reaches GM as
# in the reference. Before: E-UNSUPPORTED "tensor-level op 'pl.tensor.write' in an InCore function", and
# E-TYPE "pl.tile.cast: argument 'tile' must be a tile" for pl.cast(0 <= x, pl.INT32).
# RUN: check --schedules 5
# CHECK: PASS: no finding in any explored schedule
# pypto.program: RowMaxFlags
import pypto.language as pl


@pl.program
class RowMaxFlags:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def row_flags(x: pl.Tensor[[8, 64], pl.FP32], amax: pl.Out[pl.Tensor[[8, 1], pl.FP32]], pos: pl.Out[pl.Tensor[[8], pl.INT32]]) -> pl.Tensor[[8], pl.INT32]:
        rows: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 0)
        t: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64], [8, 64], target_memory=pl.Mem.Vec)
        tmp: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([8, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        m: pl.Tile[[8, 1], pl.FP32, pl.Mem.Vec] = pl.tile.row_max(t, tmp)
        for r, (pos_iter,) in pl.range(rows, init_values=(pos,)):
            v: pl.Scalar[pl.FP32] = pl.tile.read(m, [r, 0])
            pl.tensor.write(amax, [r, 0], v)
            p: pl.Scalar[pl.INT32] = pl.cast(0.0 <= v, pl.INT32)
            pl.tensor.write(pos_iter, [r], p)
            pos_rv: pl.Tensor[[8], pl.INT32] = pl.yield_(pos_iter)
        return pos_rv
