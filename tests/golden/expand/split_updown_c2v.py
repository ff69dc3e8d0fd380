# A C2V tile move in a split function (attr split=UP_DOWN): the AIV pops its half ([16, 64] of [32, 64]) and
# the AIC's push carries the same split code 1, so lane 1 receives rows [16, 32) (a split-0 push would hand
# both lanes rows [0, 16)).
# RUN: expand --v2c fence
import pypto.language as pl


@pl.program
class C2vSplit:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def c2v_split(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        am = pl.load(a, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
        al = pl.move(am, target_memory=pl.MemorySpace.Left)
        bm = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        br = pl.move(bm, target_memory=pl.MemorySpace.Right)
        c = pl.matmul(al, br)
        cv = pl.move(c, target_memory=pl.MemorySpace.Vec)
        e = pl.mul(cv, 0.5)
        out = pl.store(e, [0, 0], out)
        return out
# CHECK:     def c2v_split_aic(
# CHECK:         pl.system.aic_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=8192, slot_num=2)
# CHECK:         c: pl.Tile[[32, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(al, br)
# CHECK-NEXT:         pl.tile.tpush_to_aiv(c, split=1)
# CHECK:     def c2v_split_aiv(
# CHECK:         cv: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
# CHECK:         out: pl.Tensor[[32, 64], pl.FP32] = pl.tile.store(e, [subblock_idx * 16, 0], out)
