# hunt8a: the racy twin of hunt8a_mod_atom_copies_apart.py: rows (i % 2) * 8 + 32, so lane 0's rows 40-47 (i = 1)
# are lane 1's rows of i = 0: a write-after-write the split creates.
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 22:13
# EXIT: 1
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        acc = pl.matmul(lhs, rhs)
        co = pl.store(acc, [0, 0], co)
        for i in pl.range(3):
            w = pl.adds(vin, 1.0)
            s = pl.store(w, [(i % 2) * 8 + 32, 0], s)
        return co
