# A slice of an L0C accumulator names bytes of the accumulator (PyPTO's allocator gives a view its source's
# MemRef): a [16, 256] slice of a full 128 KiB FP32 [128, 256] accumulator takes no more L0C. Before, the slice
# counted 16 KiB more and this kernel (pypto-lib's prefill indexer shape) was E-CAPACITY on a2a3.
# RUN: check --schedules 3 --jobs 1
# CHECK: PASS
import pypto.language as pl


@pl.program
class AccSlice:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], out: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        am = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        al = pl.move(am, target_memory=pl.Mem.Left)
        bm = pl.load(b, [0, 0], [64, 256], target_memory=pl.Mem.Mat)
        br = pl.move(bm, target_memory=pl.Mem.Right)
        z = pl.matmul(al, br)
        for r in pl.range(0, 128, 16):
            s: pl.Tile[[16, 256], pl.FP32, pl.Mem.Acc] = pl.tile.slice(z, [16, 256], [r, 0])
            out = pl.store(s, [r, 0], out)
        return out
