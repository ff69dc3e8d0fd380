# UP_DOWN: the vector side stores rows 0-31 of scratch, then loads rows 16-47. After the split AIV1 stores rows
# 16-31 and AIV0 loads them: a cross-core RAW between the two AIV lanes that the split creates. fence/syncall
# order it with a barrier; reject reports it (it was paired only for pl.tensor.read).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        a: pl.Tensor[[32, 64], pl.FP32],
        ah: pl.Tensor[[32, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        scratch: pl.Out[pl.Tensor[[48, 64], pl.FP32]],
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
        s = pl.adds(t, 1.0)
        scratch = pl.store(s, [0, 0], scratch)
        r = pl.load(scratch, [0, 0], [32, 64])
        e = pl.muls(r, 2.0)
        out = pl.store(e, [0, 0], out)
        return out
