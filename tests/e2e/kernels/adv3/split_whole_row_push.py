# UP_DOWN: a [1, 64] bias row (extent 1 on the split axis: whole on both lanes) crosses to the cube. It was
# pushed with split=1, so AIV1 wrote its whole row at its half's offset, past the 256-byte slot (races on
# cvsim's own ring memory). Refused: E-UNSUPPORTED.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        b: pl.Tensor[[4, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        g = pl.load(a, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        for i in pl.range(4):
            bv = pl.load(b, [i, 0], [1, 64])
            b2 = pl.adds(bv, 1.0)
            bias = pl.move(b2, target_memory=pl.MemorySpace.Bias)
            z = pl.tile.matmul_bias(l, w_right, bias)
            out = pl.store(z, [i * 32, 0], out)
        return out
