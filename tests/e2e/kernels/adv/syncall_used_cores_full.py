# A soft syncall whose used_cores is the launch's participant count (2 clusters x (AIC + 2 AIV) = 6) between a
# vector store and the cube loads of another cluster's rows: modelled as every launched core, so it orders them.
import pypto.language as pl

@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[32, 64], pl.FP16]], out: pl.Out[pl.Tensor[[48, 64], pl.FP32]]) -> pl.Tensor[[48, 64], pl.FP32]:
        blk = pl.tile.get_block_idx()
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [blk * 16, 0], scratch)
        pl.system.fence()
        pl.system.syncall(core_type="mix", mode="soft", used_cores=6)
        g = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, w_right)
        out = pl.store(z, [blk * 16, 0], out)
        return out
