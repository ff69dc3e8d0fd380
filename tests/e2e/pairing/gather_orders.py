# An aic_gather after the store inside the split_aiv region orders the cube load after the region.
import pypto.language as pl


@pl.program
class GatherOrders:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split_aiv": True})
    def go(self, a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[32, 64], pl.FP16]], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t = pl.load(a, [aiv_id * 16, 0], [16, 64])
            t2 = pl.add(t, t)
            scratch = pl.store(t2, [aiv_id * 16, 0], scratch)
            g = pl.aic_gather(t2)
        g_left = pl.move(g, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        s_mat = pl.load(scratch, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(g_left, b_right)
        z2 = pl.matmul_acc(z, s_left, b_right)
        out = pl.store(z2, [0, 0], out)
        return out
