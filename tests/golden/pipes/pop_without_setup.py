# The AIV pops from the C2V ring but never runs aiv_initialize_pipe (nor reserve_buffer): E-PIPE-SETUP at the
# pop (SPEC 6 "pop without setup"), and at the AIC's import of a buffer the AIV never reserves. It passed.
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
        z: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
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
# CHECK: error[E-PIPE-SETUP]: pop_without_setup.py:16: import_peer_buffer of 'k_c2v_slot_buffer' from
# CHECK: error[E-PIPE-SETUP]: pop_without_setup.py:30: tile.tpop_from_aic uses the C2V ring id 0, which the
# CHECK: AIV never initialised: no aiv_initialize_pipe with dir_mask 1 (or 3) and id 0 ran on it before
