# Oracle fixture (issue 10 class 11): two C2V rings, ids 0 and 1, each with its own slots.
import pypto.language as pl


@pl.program
class TwoRings:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        r0 = pl.import_peer_buffer(name="k_c2v_slot_buffer", peer_func="k_aiv")
        pl.aic_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        r1 = pl.import_peer_buffer(name="k_c2v_slot_buffer_1", peer_func="k_aiv")
        pl.aic_initialize_pipe(r1, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z, split=0)
        pl.tpush_to_aiv(z, split=0, id=1)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        r0 = pl.reserve_buffer(name="k_c2v_slot_buffer", size=2048, base=pl.AUTO)
        pl.aiv_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        r1 = pl.reserve_buffer(name="k_c2v_slot_buffer_1", size=2048, base=pl.AUTO)
        pl.aiv_initialize_pipe(r1, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        xv = pl.load(x, [0, 0], [16, 16])
        a: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
        b: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
        c = pl.add(a, b)
        pl.tfree_to_aic(a)
        pl.tfree_to_aic(b, id=1)
        out = pl.store(c, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        self.k_aic(x, out)
        result = self.k_aiv(x, out)
        return result
