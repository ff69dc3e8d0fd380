# Oracle fixture (expanded by hand from a mixed kernel): an author flag pair in a loop orders each iteration's RAW, not
# the loop-carried WAR (the cube's load of iteration 0 vs the vector's store of iteration 1).
import pypto.language as pl


@pl.program
class Finding:
    @pl.function(type=pl.FunctionType.AIC)
    def kernel_aic(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], sv0: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        b_l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        rhs0: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(b_l, target_memory=pl.Mem.Right)
        for i in pl.range(2):
            pl.system.sync_wait(0, pipe=pl.PipeType.MTE2, core_type='aic')
            g: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(sv0, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
            l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(g, target_memory=pl.Mem.Left)
            acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(l, rhs0)
            out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(acc, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def kernel_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], sv0: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16])
        for i in pl.range(2):
            sv0: pl.Tensor[[16, 16], pl.FP16] = pl.tile.store(vin, [0, 0], sv0)
            pl.system.sync_set(0, pipe=pl.PipeType.MTE3, core_type='aiv')
        return out

    @pl.function(type=pl.FunctionType.Group)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], sv0: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.kernel_aic(a, b, sv0, out)
        result: pl.Tensor[[16, 16], pl.FP32] = self.kernel_aiv(a, b, sv0, out)
        return result
