# LEFT_RIGHT: valid_shape [32, 24] fits lane 0's 32 columns: lane 1's part is empty (no E-OOB).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
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
        t = pl.load(a, [0, 0], [32, 64], valid_shape=[32, 24])
        s = pl.adds(t, 1.0)
        v = s
        out = pl.store(v, [0, 0], out)
        return out
