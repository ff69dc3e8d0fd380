# An already-expanded program written by hand with split=UP_DOWN on both lane functions and a V2C ring:
# the AIV body is written for the whole tile and pushes with split=0. After the vector split each AIV
# lane pushes its half of the rows and the cube's pop gathers both halves (both sides carry code 1).
import pypto.language as pl

M = 32
K = 32
N = 32


@pl.program
class HandSplitV2c:
    @pl.function(type=pl.FunctionType.AIC, attrs={"split": pl.SplitMode.UP_DOWN})
    def hs_aic(self, x: pl.Tensor[[M, K], pl.FP16], w: pl.Tensor[[K, N], pl.FP16], out: pl.Out[pl.Tensor[[M, N], pl.FP32]]):
        ring = pl.reserve_buffer(name="hs_v2c_slot_buffer", size=4096, base=pl.AUTO)
        pl.aic_initialize_pipe(pl.const(0, pl.INT32), ring, dir_mask=2, slot_size=2048, slot_num=2)
        lhs: pl.Tile[[32, 32], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)
        lhs_left = pl.move(lhs, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(lhs_left, w_right)
        pl.tfree_to_aiv(lhs)
        out = pl.store(z, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def hs_aiv(self, x: pl.Tensor[[M, K], pl.FP16], w: pl.Tensor[[K, N], pl.FP16], out: pl.Out[pl.Tensor[[M, N], pl.FP32]]):
        ring = pl.import_peer_buffer(name="hs_v2c_slot_buffer", peer_func="hs_aic")
        pl.aiv_initialize_pipe(pl.const(0, pl.INT32), ring, dir_mask=2, slot_size=2048, slot_num=2)
        t = pl.load(x, [0, 0], [M, K])
        t2 = pl.add(t, t)
        pl.tpush_to_aic(t2, split=0)

    @pl.function(type=pl.FunctionType.Group, attrs={"split": pl.SplitMode.UP_DOWN})
    def hs(self, x: pl.Tensor[[M, K], pl.FP16], w: pl.Tensor[[K, N], pl.FP16], out: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
        self.hs_aic(x, w, out)
        self.hs_aiv(x, w, out)
        return out
