# hunt8a: a row offset with no affine form (i * j) leaves the other dimensions of the window known.
# The vector lane writes columns 0-15 of s at rows i * j, the cube writes columns 16-31: never the same
# element. The whole window was unknown (may overlap anything): E-V2C-UNFENCED under reject, a barrier under
# fence. The racy twin (the cube's columns 8-23) is hunt8a_unknown_row_columns_meet.py.
# RUN: check --v2c reject
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
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
                s = pl.store(acc, [0, 16], s)
        out = pl.store(vin, [0, 0], out)
        return out
