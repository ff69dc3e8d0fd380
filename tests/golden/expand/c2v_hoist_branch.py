# C2V through GM as upstream fences it: the cube stores its matmul result to a scratch at the top level and
# the vector lane reads it back inside a branch inside a loop. The token pop (and its tfree) is hoisted
# before the enclosing loop at the store's level, so one push meets one pop whatever the trip count.
# RUN: expand --v2c off
import pypto.language as pl


@pl.program
class C2vHoist:
    @pl.function(type=pl.FunctionType.InCore)
    def hoist(self, x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, w_right)
        scratch = pl.store(z, [0, 0], scratch)
        for r in pl.range(4):
            if r < 2:
                row = pl.load(scratch, [r * 4, 0], [4, 64], target_memory=pl.MemorySpace.Vec)
                e = pl.mul(row, 0.5)
                out = pl.store(e, [r * 4, 0], out)
        return out
# CHECK:     def hoist_aic(
# CHECK:         scratch: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], scratch)
# CHECK-NEXT:         pl.tile.tpush_to_aiv(z, split=0)
# CHECK:     def hoist_aiv(
# CHECK:         _c2v_token: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
# CHECK-NEXT:         pl.system.tfree_to_aic(_c2v_token)
# CHECK-NEXT:         for r in pl.range(4):
# CHECK-NEXT:             if r < 2:
# CHECK-NOT: tpop_from_aic
# CHECK-NEXT:                 row: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch, [r * 4, 0], [4, 64], target_memory=pl.Mem.Vec)
