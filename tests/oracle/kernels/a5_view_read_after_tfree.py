# Oracle fixture (issue 10 class 1): on a5 the view tv of the popped tile s is read after the tfree of s.
# (the expansion of a mixed kernel, kept as written so the fixture does not change with the expander)
import pypto.language as pl


@pl.program
class Finding:
    @pl.function(type=pl.FunctionType.AIC)
    def kernel_aic(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[48, 16], pl.FP32]]):
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='kernel_c2v_slot_buffer', peer_func='kernel_aiv')
        pl.system.aic_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        a_l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        lhs0: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(a_l, target_memory=pl.Mem.Left)
        b_l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        rhs0: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(b_l, target_memory=pl.Mem.Right)
        for i in pl.range(3):
            acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(lhs0, rhs0)
            pl.tile.tpush_to_aiv(acc, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def kernel_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='kernel_c2v_slot_buffer', size=2048, base=pl.AUTO)
        pl.system.aiv_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        for i in pl.range(3):
            s: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
            tv: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.slice(s, [16, 16], [0, 0])
            pl.system.tfree_to_aic(s)
            v: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.exp(tv)
            out: pl.Tensor[[48, 16], pl.FP32] = pl.tile.store(v, [i * 16, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        self.kernel_aic(a, b, out)
        result: pl.Tensor[[48, 16], pl.FP32] = self.kernel_aiv(a, b, out)
        return result
