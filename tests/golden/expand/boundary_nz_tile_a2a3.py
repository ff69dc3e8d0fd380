# A mixed kernel whose vector side moves a tile to NZ (as an a5 kernel would) and then crosses to the cube with a
# boundary move. On a2a3 the V2C pop repacks the slot ND -> NZ, so the expander moves the tile back to ND before the
# push (it was pushed as is: W-V2C-LAYOUT and E-MISMATCH on cvsim's own expansion; hunt10). On a5 the NZ tile
# travels as it is (boundary_nz_tile_a5.py).
# RUN: expand
# CHECK: t3_nd: pl.Tile[[32, 32], pl.FP16, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)] = pl.tile.move(t3, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
# CHECK-NEXT: pl.tile.tpush_to_aic(t3_nd, split=0)
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
