# pl.tile.read of a halved tile in a UP_DOWN split function: element [20, 3] lives on AIV1 only (rows 16-31);
# the lanes kept the whole tile's index (false E-OOB on AIV0, E-MISMATCH on AIV1). Refused: E-UNSUPPORTED.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP32],
        ah: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
        out2: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        g = pl.load(ah, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out2 = pl.store(z, [0, 0], out2)
        t = pl.load(a, [0, 0], [32, 64])
        x = pl.tile.read(t, [20, 3])
        s = pl.adds(t, x)
        out = pl.store(s, [0, 0], out)
        return out
