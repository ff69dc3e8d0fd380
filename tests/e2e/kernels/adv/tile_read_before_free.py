# The same kernel with the read before the tfree: correct on both targets.
import pypto.language as pl


@pl.program
class R:
    @pl.function(type=pl.FunctionType.AIC)
    def r_aic(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
        ring = pl.import_peer_buffer(name="r_c2v_slot_buffer", peer_func="r_aiv")
        pl.aic_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=1)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            z = pl.matmul(x_left, x_right)
            pl.tpush_to_aiv(z, split=0)
            x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)

    @pl.function(type=pl.FunctionType.AIV)
    def r_aiv(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        ring = pl.reserve_buffer(name="r_c2v_slot_buffer", size=1 * 1024, base=pl.AUTO)
        pl.aiv_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=1)
        for i in pl.range(2):
            z: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
            v = pl.tile.read(z, [0, 0])
            pl.tfree_to_aic(z)
            t0 = pl.load(x, [0, 0], [16, 16])
            t1 = pl.cast(t0, pl.FP32)
            e = pl.mul(t1, v)

            out = pl.store(e, [i * 16, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def r(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        self.r_aic(x, out)
        result = self.r_aiv(x, out)
        return result
