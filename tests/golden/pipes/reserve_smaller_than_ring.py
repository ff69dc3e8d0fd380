# The consumer reserves 1024 bytes for a ring of 2 x 1024 bytes: E-CAPACITY at its initialize (SPEC 4.3,
# "out-of-range buffers"). It passed.
# RUN: check --target a5
# ERROR: E-CAPACITY 34:9 binds a C2V ring of 2 slots x 1024 bytes = 2048 bytes to the buffer 'relay_c2v_slot_buffer', reserved at line 33 with 1024 bytes
import pypto.language as pl

T = 4


@pl.program
class MissingTfree:
    @pl.function(type=pl.FunctionType.AIC)
    def relay_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        ring = pl.import_peer_buffer(name="relay_c2v_slot_buffer", peer_func="relay_aiv")
        pl.aic_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(T):
            z = pl.matmul(x_left, x_right)
            pl.tpush_to_aiv(z, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def relay_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        ring = pl.reserve_buffer(name="relay_c2v_slot_buffer", size=1024, base=pl.AUTO)
        pl.aiv_initialize_pipe(ring, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        for i in pl.range(T):
            z: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
            out = pl.store(z, [0, 0], out)
            pl.tfree_to_aic(z)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def relay(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        self.relay_aic(x, out)
        result = self.relay_aiv(x, out)
        return result
