# hunt8a: the racy twin of hunt8a_floor_div_rows_apart.py: with i in 0..3 the cube's rows (i // 2) * 16 reach
# rows 16-31, which the vector lane loaded in an earlier iteration (rows (i % 2) * 16 + 16): a V2C write-after-read.
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 23:13
# EXIT: 1
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        for i in pl.range(4):
            g = pl.load(s, [(i % 2) * 16 + 16, 0], [16, 16])
            h = pl.add(g, vin)
            out = pl.store(h, [0, 0], out)
            s = pl.store(acc, [(i // 2) * 16, 0], s)
        return out
