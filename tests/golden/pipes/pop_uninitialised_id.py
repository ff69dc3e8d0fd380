# Both sides set up ring id 0; the AIV pops from ring id 1, which nobody initialised: E-PIPE-SETUP at the pop
# (and the deadlock it causes). It was E-DEADLOCK only.
# RUN: check
# EXIT: 1
import pypto.language as pl


@pl.program
class PopNoSetup:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        ring = pl.import_peer_buffer(name="k_c2v_slot_buffer", peer_func="k_aiv")
        pl.aic_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(x_left, x_right)
        pl.tpush_to_aiv(z, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        ring = pl.reserve_buffer(name="k_c2v_slot_buffer", size=2048, base=pl.AUTO)
        pl.aiv_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        z: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
        out = pl.store(z, [0, 0], out)
        pl.tfree_to_aic(z)
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
# CHECK: FAIL: 2 distinct finding(s)
# CHECK: error[E-DEADLOCK]
# CHECK: error[E-PIPE-SETUP]: pop_uninitialised_id.py:32: tile.tpop_from_aic uses the C2V ring id 1, which
