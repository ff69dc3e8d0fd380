# hunt9: the racy twin of hunt9_subblock_idx_rows_apart.py: the cube loads rows 16-31, which lane 1 writes (rows
# 24-31): a V2C read-after-write (E-RACE-RAW under off).
# RUN: expand --v2c reject
# ERROR: E-V2C-UNFENCED 19:9
# EXIT: 1
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
        cm = pl.load(s, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, rhs)
        co = pl.store(cz, [0, 0], co)
        return co
