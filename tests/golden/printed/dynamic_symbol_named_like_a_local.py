# PyPTO can print a kernel's local scalar also as a module-level pl.dynamic symbol of the same name (pypto-lib's
# drafter: `proj_rows = pl.dynamic(...)` and `proj_rows: pl.Scalar[pl.INDEX] = pl.min(...)`). In a tile's
# valid_shape that name is the run-time scalar, not the symbol's default 128: before, the default was folded in
# and the type was "valid_shape exceeds the tile shape".
# RUN: run
# CHECK: outputs: equal to the reference (1 tensor, bit-exact)
# CHECK: findings: none
import pypto.language as pl

rows__ssa_v0 = pl.dynamic("rows__ssa_v0")


@pl.program
class Shadow:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def shadow_incore(x__ssa_v0: pl.Tensor[[20, 32], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[20, 32], pl.FP32]]) -> pl.Tensor[[20, 32], pl.FP32]:
        for t__idx_v0, (y__iter_v1,) in pl.range(0, 2, 1, init_values=(y__ssa_v0,)):
            t0__ssa_v0: pl.Scalar[pl.INDEX] = t__idx_v0 * 16
            rows__ssa_v0: pl.Scalar[pl.INDEX] = pl.min(20 - t0__ssa_v0, 16)
            a__tile: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows__ssa_v0, 32])] = pl.tile.load(
                x__ssa_v0, [t0__ssa_v0, 0], [16, 32], [rows__ssa_v0, 32], target_memory=pl.Mem.Vec
            )
            b__tile: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows__ssa_v0, 32])] = pl.tile.exp(a__tile)
            y__tile: pl.Tensor[[20, 32], pl.FP32] = pl.tile.store(b__tile, [t0__ssa_v0, 0], y__iter_v1)
            y__rv_v2 = pl.yield_(y__tile)
        return y__rv_v2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def shadow(self, x__ssa_v0: pl.Tensor[[20, 32], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[20, 32], pl.FP32]]) -> pl.Tensor[[20, 32], pl.FP32]:
        r__ssa_v0: pl.Tensor[[20, 32], pl.FP32] = self.shadow_incore(x__ssa_v0, y__ssa_v0)
        return r__ssa_v0
