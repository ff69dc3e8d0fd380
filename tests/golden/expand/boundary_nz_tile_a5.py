# As boundary_nz_tile_a2a3.py on a5: the V2C transport carries NZ, the tile is pushed as it is (no adapter).
# RUN: expand --target a5
# CHECK: pl.tile.tpush_to_aic(t3, split=0)
# CHECK-NOT: _nd
import pypto.language as pl


@pl.program
class BoundaryMove:
    @pl.function(type=pl.FunctionType.InCore)
    def bm(
        self,
        a: pl.Tensor[[32, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [32, 32])
        t2 = pl.add(t, t)
        t3 = pl.move(t2, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
        lhs = pl.move(t3, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(lhs, b_right)
        out = pl.store(z, [0, 0], out)
        return out
