# reject_block_band.py launched by an orchestration with attrs={"core_num": 4}: the launch's width is known
# only from the launch, so the expansion must use it (cluster 3's band meets the cube reads: reject reports
# it). Expanding for one block would bound the block index to 0 and miss the dependency.
import pypto.language as pl


@pl.program
class BlockBandLaunch:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(a, [0, 0], [16, 64])
        u = pl.add(t, t)
        scratch = pl.store(u, [b * 16, 0], scratch)
        g = pl.load(scratch, [48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, wr)
        out = pl.store(z, [b * 16, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def k_spmd(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        o = self.k(a, w, scratch, out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        o = self.k_spmd(a, w, scratch, out, attrs={"core_num": 4})
        return o
