# UP_DOWN: a load whose valid_shape [16, 64] fits lane 0's half: lane 1's part is 0 rows, an empty window at
# row 16 that moves nothing (it was reported as E-OOB on the load and the store).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP32],
        ah: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
        out2: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        g = pl.load(ah, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        z = pl.matmul(l, w_right)
        out2 = pl.store(z, [0, 0], out2)
        t = pl.load(a, [17, 0], [32, 64], valid_shape=[16, 64])
        s = pl.adds(t, 1.0)
        v = s
        out = pl.store(v, [0, 0], out)
        return out
