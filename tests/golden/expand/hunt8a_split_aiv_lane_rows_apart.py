# hunt8a: a split_aiv(2, mode=NONE) region's lane index is 0 or 1. Each AIV lane stores rows 16 + lane * 8
# (rows 16-31 together), the cube loads rows 32-47: apart. The lane index had no bounds, so the lanes' window
# met every row (E-V2C-UNFENCED under reject). Twin: hunt8a_split_aiv_lane_rows_meet.py.
# RUN: check --v2c reject
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[48, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        v8 = pl.load(a, [0, 0], [8, 16])
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            w = pl.adds(v8, 1.0)
            s = pl.store(w, [16 + lane * 8, 0], s)
            out = pl.store(v8, [lane * 8, 0], out)
        cm = pl.load(s, [32, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, rhs)
        co = pl.store(cz, [0, 0], co)
        return out
