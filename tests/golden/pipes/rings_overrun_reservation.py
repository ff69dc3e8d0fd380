# Two C2V rings of 2 x 1024 bytes in reservations of 1024 bytes at bases 0 and 1024: on a5 ring 0's slot 1
# is ring 1's slot 0. E-CAPACITY at the first ring's initialize. It passed.
# RUN: check --target a5
# ERROR: E-CAPACITY 38:9 to the buffer 'ring_a', reserved at line 36 with 1024 bytes: the ring overruns its reservation
import pypto.language as pl


@pl.program
class Overlap:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ):
        r0 = pl.import_peer_buffer(name="ring_a", peer_func="k_aiv")
        r1 = pl.import_peer_buffer(name="ring_b", peer_func="k_aiv")
        pl.aic_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=0)
        pl.aic_initialize_pipe(r1, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z, split=0, id=0)
        z1 = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z1, split=0, id=0)
        z2 = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z2, split=0, id=1)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ) -> pl.Tensor[[48, 16], pl.FP32]:
        r0 = pl.reserve_buffer(name="ring_a", size=1024, base=0)
        r1 = pl.reserve_buffer(name="ring_b", size=1024, base=1024)
        pl.aiv_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=0)
        pl.aiv_initialize_pipe(r1, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        a: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=0)
        a1: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=0)
        b: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
        out = pl.store(a, [0, 0], out)
        out = pl.store(b, [16, 0], out)
        out = pl.store(a1, [32, 0], out)
        pl.tfree_to_aic(a, id=0)
        pl.tfree_to_aic(a1, id=0)
        pl.tfree_to_aic(b, id=1)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ) -> pl.Tensor[[48, 16], pl.FP32]:
        self.k_aic(x, out)
        result = self.k_aiv(x, out)
        return result
