# An Orchestration function that creates a GM scratch tensor and launches a mixed kernel on 4 clusters
# (pl.spmd). Each cluster's vector lane writes its band of the scratch, its cube lane reads the band back
# for a matmul: a V2C dependency per cluster, through a tensor the kernel did not receive as a parameter
# of the launch.
import pypto.language as pl

NB = 4
M = 16
K = 64
N = 64


@pl.program
class Orchestrated:
    @pl.function(type=pl.FunctionType.InCore)
    def band(
        self,
        a: pl.Tensor[[NB * M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[NB * M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[NB * M, N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, N], pl.FP32]:
        blk = pl.tile.get_block_idx()
        a_t = pl.load(a, [blk * M, 0], [M, K])
        sq = pl.mul(a_t, a_t)
        scratch = pl.store(sq, [blk * M, 0], scratch)
        s_mat = pl.load(scratch, [blk * M, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(s_left, w_right)
        out = pl.store(z, [blk * M, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[NB * M, K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        out: pl.Out[pl.Tensor[[NB * M, N], pl.FP32]],
    ) -> pl.Tensor[[NB * M, N], pl.FP32]:
        scratch = pl.create_tensor([NB * M, K], pl.FP16)
        for b in pl.spmd(NB):
            out = self.band(a, w, scratch, out)
        return out
