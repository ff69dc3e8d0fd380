# pypto.program: K
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(self, a: pl.Tensor[[480, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[480, 64], pl.FP16]], out: pl.Out[pl.Tensor[[480, 64], pl.FP32]], __syncall_workspace: pl.InOut[pl.Tensor[[64], pl.INT32]]):
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        w_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        pl.system.fence()
        pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
        g: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [pl.min(blk + 1, 29) * 16, 0], [16, 64], target_memory=pl.Mem.Mat)
        l: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(g, target_memory=pl.Mem.Left)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(l, w_right)
        out: pl.Tensor[[480, 64], pl.FP32] = pl.tile.store(z, [blk * 16, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(self, a: pl.Tensor[[480, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[480, 64], pl.FP16]], out: pl.Out[pl.Tensor[[480, 64], pl.FP32]], __syncall_workspace: pl.InOut[pl.Tensor[[64], pl.INT32]]) -> pl.Tensor[[480, 64], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [blk * 16, 0], [16, 64])
        u: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(t, t)
        scratch: pl.Tensor[[480, 64], pl.FP16] = pl.tile.store(u, [blk * 16, 0], scratch)
        pl.system.fence()
        pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(self, a: pl.Tensor[[480, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[480, 64], pl.FP16]], out: pl.Out[pl.Tensor[[480, 64], pl.FP32]], __syncall_workspace: pl.InOut[pl.Tensor[[64], pl.INT32]]) -> pl.Tensor[[480, 64], pl.FP32]:
        self.k_aic(a, w, scratch, out, __syncall_workspace)
        result: pl.Tensor[[480, 64], pl.FP32] = self.k_aiv(a, w, scratch, out, __syncall_workspace)
        return result
