# Regression: an if without yields binds names used after it (DSL.md 4.3); expansion keeps it on the
# lane that reads them (the dead-code pass used to drop it, leaving 'z' undefined).
# RUN: expand
import pypto.language as pl


@pl.program
class Repro:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        t = pl.load(a, [0, 0], [16, 64])
        if n == 0:
            z = pl.neg(t)
        else:
            z = pl.abs(t)
        m = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        l = pl.move(m, target_memory=pl.Mem.Left)
        bm = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        r = pl.move(pl.reshape(bm, [64, 16]), target_memory=pl.Mem.Right)
        c = pl.matmul(l, r)
        cv = pl.move(c, target_memory=pl.Mem.Vec)
        out = pl.store(z, [0, 0], out)
        return out

# CHECK:     def k_aiv(
# CHECK:         if n == 0:
# CHECK-NEXT:             z: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.neg(t)
# CHECK-NEXT:         else:
# CHECK-NEXT:             z: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.abs(t)
# CHECK:         out: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(z, [subblock_idx * 8, 0], out)
