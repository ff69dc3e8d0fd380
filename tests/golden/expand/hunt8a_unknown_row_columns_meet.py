# hunt8a: the racy twin of hunt8a_unknown_row_columns_apart.py: the cube's columns 8-23 meet the vector
# lane's columns 0-15 at the unknown rows i * j (rows 0-15 at i * j = 0): a V2C write-after-write.
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 23:17
# EXIT: 1
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[48, 32], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        for i in pl.range(2):
            for j in pl.range(2):
                w = pl.adds(vin, 1.0)
                s = pl.store(w, [i * j * 16, 0], s)
                s = pl.store(acc, [0, 8], s)
        out = pl.store(vin, [0, 0], out)
        return out
