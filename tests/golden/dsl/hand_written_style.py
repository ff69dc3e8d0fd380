# The hand-written style: short op names, pl.MemorySpace, attrs= in the decorator, re-binding of
# tensor names, module constants folded with Python semantics, the `from ... import` header.
# RUN: print
from pypto import language as pl

ROWS = 16
COLS = ROWS * 4 + 0
HALF = ROWS // 2
NEG = -7 // 2  # Python floors: -4
SCALE = 1 / 4


@pl.program
class HandWritten:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN, "slot_num": 4, "custom": "kept"})
    def kernel(
        self,
        a: pl.Tensor[[ROWS, COLS], pl.FP16],
        b: pl.Tensor[[COLS, COLS], pl.FP16],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.load(a, [0, 0], [ROWS, COLS])
        u = pl.mul(t, SCALE)
        v = pl.add(u, t)
        a_mat = pl.load(a, [0, 0], [ROWS, COLS], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, -NEG - 4], [COLS, COLS], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(a_left, b_right)
        zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
        w = pl.add(zv, pl.cast(v, pl.FP32))
        out = pl.store(w, [0, 0], out)
        out = pl.store(w, [0, 0], out)
        return out

# CHECK: # pypto.program: HandWritten
# CHECK: import pypto.language as pl
# CHECK: @pl.program
# CHECK: class HandWritten:
# CHECK:     @pl.function(type=pl.FunctionType.InCore)
# CHECK:     def kernel(self, a: pl.Tensor[[16, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
# CHECK:         pl.func_attr({'split': pl.SplitMode.UP_DOWN, 'slot_num': 4, 'custom': 'kept'})
# CHECK:         t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
# CHECK:         u: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(t, 0.25)
# CHECK:         v: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(u, t)
# CHECK:         a_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
# CHECK:         a_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
# CHECK:         b_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
# CHECK:         b_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
# CHECK:         z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
# CHECK:         zv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(z, target_memory=pl.Mem.Vec)
# CHECK:         _cast: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.cast(v, pl.FP32)
# CHECK:         w: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(zv, _cast)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(w, [0, 0], out)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(w, [0, 0], out)
# CHECK:         return out
