# hunt9: per-lane form (attr split_aiv): each lane stores rows sb * 8 and then loads rows 8 - sb * 8, the other
# lane's: an AIV0 / AIV1 read-after-write (E-RACE-RAW under off). Each lane's window is taken at its own lane index
# (the split_aiv form is not halved: it was, which only the unknown lane index kept from missing pairs).
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 18:9
# EXIT: 1
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[48, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        sb = pl.tile.get_subblock_idx()
        vin = pl.load(a, [sb * 8, 0], [8, 16])
        w = pl.adds(vin, 1.0)
        s = pl.store(w, [sb * 8, 0], s)
        r = pl.load(s, [8 - sb * 8, 0], [8, 16])
        o2 = pl.store(r, [sb * 8, 0], o2)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        cm = pl.load(s, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, rhs)
        co = pl.store(cz, [0, 0], co)
        return co
