# A mixed kernel with distributed state (written for cvsim's tests): the cube multiplies, the vector stores the
# product and sends it to a peer rank with pld.tile.remote_store, then signals it with pld.system.notify placed on
# the AIV lane. cvsim expands it for comparison only (--v2c off) and never simulates it (one device).
import pypto.language as pl


@pl.program
class DistMixed:
    @pl.function(type=pl.FunctionType.InCore)
    def mm_send(
        self,
        a: pl.Tensor[[16, 32], pl.BF16],
        b: pl.Tensor[[32, 32], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        window: pl.Out[pld.DistributedTensor[[16, 32], pl.FP32]],
        done: pl.Out[pld.DistributedTensor[[2, 1], pl.INT32]],
        peer: pl.Scalar[pl.INDEX],
    ):
        a_l1: pl.Tile[[16, 32], pl.BF16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        b_l1: pl.Tile[[32, 32], pl.BF16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [32, 32], target_memory=pl.Mem.Mat)
        a_l0: pl.Tile[[16, 32], pl.BF16, pl.Mem.Left] = pl.tile.move(a_l1, target_memory=pl.Mem.Left)
        b_l0: pl.Tile[[32, 32], pl.BF16, pl.Mem.Right] = pl.tile.move(b_l1, target_memory=pl.Mem.Right)
        c: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_l0, b_l0)
        v: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.move(c, target_memory=pl.Mem.Vec)
        out1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(v, [0, 0], out)
        pld.tile.remote_store(v, window, peer, [0, 0])
        pld.system.notify(done, peer, [0, 0], pl.const(1, pl.INT32), op=0, attrs={"core_placement": "aiv"})
        return
