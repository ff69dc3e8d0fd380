# The printed forms of two vector ops PyPTO emits in real kernels: pl.tile.rsqrt with its optional scratch
# tile (the high-precision lowering) and pl.tile.cast with the modes "none", "rint" and "odd" (pto's
# CAST_NONE / CAST_RINT / CAST_ODD). Read and checked. Before: E-TYPE "pl.tile.rsqrt() takes 1
# argument(s), got 2" and "pl.tile.cast: unknown mode 'none'".
# RUN: check --schedules 5
# CHECK: PASS: no finding in any explored schedule
# pypto.program: RsqrtCast
import pypto.language as pl


@pl.program
class RsqrtCast:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def norm(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.BF16]], q: pl.Out[pl.Tensor[[16, 64], pl.INT32]]) -> pl.Tensor[[16, 64], pl.BF16]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        a: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.abs(t)
        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(a, 1.0)
        tmp: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        r: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.rsqrt(s, tmp)
        r2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.rsqrt(r)
        b: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.cast(r2, target_type=pl.BF16, mode="none")
        k: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 8.0)
        i: pl.Tile[[16, 64], pl.INT32, pl.Mem.Vec] = pl.tile.cast(k, target_type=pl.INT32, mode="odd")
        j: pl.Tile[[16, 64], pl.INT32, pl.Mem.Vec] = pl.tile.cast(k, target_type=pl.INT32, mode="rint")
        ij: pl.Tile[[16, 64], pl.INT32, pl.Mem.Vec] = pl.tile.add(i, j)
        q_1: pl.Tensor[[16, 64], pl.INT32] = pl.tile.store(ij, [0, 0], q)
        y_1: pl.Tensor[[16, 64], pl.BF16] = pl.tile.store(b, [0, 0], y)
        return y_1
