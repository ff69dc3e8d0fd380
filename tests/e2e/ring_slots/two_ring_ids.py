# Two C2V rings (id 0 and id 1) between the same cores on one cluster. Each
# ring must get its own region of the hidden ring buffer: ring 1 placed over
# the first user tensor `x` would make the cube's pushes "write" the read-only
# input (a false race against the vector's loads of it).
import pypto.language as pl

T = 3


@pl.program
class TwoRings:
    @pl.function(type=pl.FunctionType.AIC)
    def two_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[T * 32, 16], pl.FP32]],
    ):
        r0 = pl.import_peer_buffer(name="two_c2v_slot_buffer", peer_func="two_aiv")
        pl.aic_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        r1 = pl.import_peer_buffer(name="two_c2v1_slot_buffer", peer_func="two_aiv")
        pl.aic_initialize_pipe(r1, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        for i in pl.range(T):
            x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
            x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
            z = pl.matmul(x_left, x_right)
            pl.tpush_to_aiv(z, split=0)
            pl.tpush_to_aiv(z, split=0, id=1)

    @pl.function(type=pl.FunctionType.AIV)
    def two_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[T * 32, 16], pl.FP32]],
    ) -> pl.Tensor[[T * 32, 16], pl.FP32]:
        r0 = pl.reserve_buffer(name="two_c2v_slot_buffer", size=2048, base=pl.AUTO)
        pl.aiv_initialize_pipe(r0, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        r1 = pl.reserve_buffer(name="two_c2v1_slot_buffer", size=2048, base=pl.AUTO)
        pl.aiv_initialize_pipe(r1, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2, id=1)
        for i in pl.range(T):
            a: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
            out = pl.store(a, [i * 32, 0], out)
            pl.tfree_to_aic(a)
            b: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
            xv = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Vec)
            xf = pl.tile.cast(xv, pl.FP32)
            s = pl.add(b, xf)
            out = pl.store(s, [i * 32 + 16, 0], out)
            pl.tfree_to_aic(b, id=1)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def two(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[T * 32, 16], pl.FP32]],
    ) -> pl.Tensor[[T * 32, 16], pl.FP32]:
        self.two_aic(x, out)
        result = self.two_aiv(x, out)
        return result
