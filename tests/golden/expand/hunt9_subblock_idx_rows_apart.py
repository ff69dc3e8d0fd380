# hunt9 (hunt8a subblock_idx_offset_reject): an UP_DOWN split function stores its 16-row tile at rows sb * 16, sb =
# pl.tile.get_subblock_idx(); the split halves the tile and shifts lane L's half by L * 8, so lane 0 writes rows
# 0-7 and lane 1 rows 24-31 (the lane index is L there too), and the cube loads rows 8-23: no common row. The lane
# index was no atom of the window analysis (an unknown row: every row met), so reject raised E-V2C-UNFENCED. It
# is now an atom in [0, 1] that no two accesses share, and gm_sync meets a vector access holding it lane by lane:
# the index's value and that lane's half. (`check` reports E-MISMATCH: the explicit lane offset makes the split
# kernel differ from the unsplit reference, which stores rows 0-15; no race.) Racy twin (rows 16-31):
# hunt9_subblock_idx_rows_meet.py.
# RUN: expand --v2c reject
# CHECK: cm: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(s, [8, 0], [16, 16], target_memory=pl.Mem.Mat)
# CHECK: s: pl.Tensor[[48, 16], pl.FP32] = pl.tile.store(w, [sb * 16 + subblock_idx * 8, 0], s)
import pypto.language as pl


@pl.program
class Sb:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[48, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        sb = pl.tile.get_subblock_idx()
        w = pl.adds(vin, 1.0)
        s = pl.store(w, [sb * 16, 0], s)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        cm = pl.load(s, [8, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, rhs)
        co = pl.store(cz, [0, 0], co)
        return co
