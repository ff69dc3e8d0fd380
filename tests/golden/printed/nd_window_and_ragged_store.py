# Two forms of pypto-lib's printed model kernels, in the printed style. (1) A [4, 1, 64] window of a 3-D tensor
# is one [4, 64] tile (PyPTO's FlattenTileNdTo2D), stored back through an N-D window: before, E-UNSUPPORTED "a
# tile window must be 2-D". (2) A ragged tail: the tile's region [rows, 4] is a run-time scalar (min(T - t0,
# 8)) and its store into a [T, 4] tensor was a false static E-OOB (the check used the [8, 8] tile). The
# simulator's run equals the reference on every tensor.
# RUN: run
# CHECK: outputs: equal to the reference (2 tensors, bit-exact)
# CHECK: findings: none
# pypto.program: Forms
import pypto.language as pl


@pl.program
class Forms:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def forms_incore(
        x__ssa_v0: pl.Tensor[[12, 4, 64], pl.FP32],
        y__ssa_v0: pl.Out[pl.Tensor[[12, 4, 64], pl.FP32]],
        m__ssa_v0: pl.Tensor[[13, 8], pl.FP32],
        tail__ssa_v0: pl.Out[pl.Tensor[[13, 4], pl.FP32]],
    ) -> tuple[pl.Tensor[[12, 4, 64], pl.FP32], pl.Tensor[[13, 4], pl.FP32]]:
        for t__idx_v0, (y__iter_v1, tail__iter_v1) in pl.range(0, 2, 1, init_values=(y__ssa_v0, tail__ssa_v0)):
            t0__ssa_v0: pl.Scalar[pl.INDEX] = t__idx_v0 * 8
            lane__ssa_v0: pl.Scalar[pl.INDEX] = t__idx_v0 + 1
            a__tile: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(
                x__ssa_v0, [t__idx_v0 * 4, lane__ssa_v0, 0], [4, 1, 64], [4, 1, 64], target_memory=pl.Mem.Vec
            )
            b__tile: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(a__tile, 3.0)
            y__tile: pl.Tensor[[12, 4, 64], pl.FP32] = pl.tile.store(b__tile, [t__idx_v0 * 4 + 2, 3 - lane__ssa_v0, 0], y__iter_v1, [4, 1, 64])
            rows__ssa_v0: pl.Scalar[pl.INDEX] = pl.min(13 - t0__ssa_v0, 8)
            c__tile: pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows__ssa_v0, 4])] = pl.tile.load(
                m__ssa_v0, [t0__ssa_v0, 0], [8, 8], [rows__ssa_v0, 4], target_memory=pl.Mem.Vec
            )
            d__tile: pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows__ssa_v0, 4])] = pl.tile.adds(c__tile, 1.0)
            tail__tile: pl.Tensor[[13, 4], pl.FP32] = pl.tile.store(d__tile, [t0__ssa_v0, 0], tail__iter_v1)
            y__rv_v2, tail__rv_v2 = pl.yield_(y__tile, tail__tile)
        return y__rv_v2, tail__rv_v2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def forms(
        self,
        x__ssa_v0: pl.Tensor[[12, 4, 64], pl.FP32],
        y__ssa_v0: pl.Out[pl.Tensor[[12, 4, 64], pl.FP32]],
        m__ssa_v0: pl.Tensor[[13, 8], pl.FP32],
        tail__ssa_v0: pl.Out[pl.Tensor[[13, 4], pl.FP32]],
    ) -> tuple[pl.Tensor[[12, 4, 64], pl.FP32], pl.Tensor[[13, 4], pl.FP32]]:
        r__tmp_v0: pl.Tuple[pl.Tensor[[12, 4, 64], pl.FP32], pl.Tensor[[13, 4], pl.FP32]] = self.forms_incore(x__ssa_v0, y__ssa_v0, m__ssa_v0, tail__ssa_v0)
        y__ssa_v1: pl.Tensor[[12, 4, 64], pl.FP32] = r__tmp_v0[0]
        tail__ssa_v1: pl.Tensor[[13, 4], pl.FP32] = r__tmp_v0[1]
        return y__ssa_v1, tail__ssa_v1
