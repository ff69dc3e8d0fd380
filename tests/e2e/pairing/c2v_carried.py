# Loop-carried C2V RAW (cube store at the end of the body, vector load at the start): left unfenced as
# upstream does, and said so.
import pypto.language as pl


@pl.program
class C2vCarried:
    @pl.function(type=pl.FunctionType.InCore)
    def cc(self, a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            v = pl.load(scratch, [0, 0], [16, 64])
            r = pl.add(v, v)
            out = pl.store(r, [i * 16, 0], out)
            g = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            l = pl.move(g, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(l, w_right)
            scratch = pl.store(z, [0, 0], scratch)
        return out
