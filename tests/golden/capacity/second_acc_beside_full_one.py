# The rule that lets a slice share its accumulator's L0C must not hide a real second tile: a fresh [16, 256]
# FP32 accumulator created while the full 128 KiB one is live does not fit the a2a3 L0C (128 KiB).
# RUN: check --schedules 3 --jobs 1
# ERROR: E-CAPACITY 18:9 L0C (Acc)
import pypto.language as pl


@pl.program
class TwoAcc:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], out: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        am = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        al = pl.move(am, target_memory=pl.Mem.Left)
        bm = pl.load(b, [0, 0], [64, 256], target_memory=pl.Mem.Mat)
        br = pl.move(bm, target_memory=pl.Mem.Right)
        z = pl.matmul(al, br)
        s: pl.Tile[[16, 256], pl.FP32, pl.Mem.Acc] = pl.tile.slice(z, [16, 256], [0, 0])
        w = pl.tile.create([16, 256], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        out = pl.store(w, [16, 0], out)
        out = pl.store(s, [0, 0], out)
        return out
