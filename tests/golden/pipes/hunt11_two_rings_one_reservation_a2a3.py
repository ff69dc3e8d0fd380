# hunt11_two_rings_one_reservation_a5.py on a2a3: the rings live in GM there (SPEC 4.3) and the reservation does
# not hold them, so the two rings do not share slots: clean.
# RUN: check --target a2a3
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class Overlap:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        y: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ):
        r0 = pl.import_peer_buffer(name="ring_a", peer_func="k_aiv")
        r1 = pl.import_peer_buffer(name="ring_b", peer_func="k_aiv")
        pl.aic_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=0)
        pl.aic_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        y_mat = pl.load(y, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left_r2 = pl.move(y_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z, split=0, id=0)
        z1 = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z1, split=0, id=0)
        z2 = pl.matmul(x_left, x_left_r2)
        pl.tpush_to_aiv(z2, split=0, id=1)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        y: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ) -> pl.Tensor[[48, 16], pl.FP32]:
        r0 = pl.reserve_buffer(name="ring_a", size=4096, base=0)
        r1 = pl.reserve_buffer(name="ring_b", size=4096, base=4096)
        pl.aiv_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=0)
        pl.aiv_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
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
        y: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ) -> pl.Tensor[[48, 16], pl.FP32]:
        self.k_aic(x, y, out)
        result = self.k_aiv(x, y, out)
        return result
