# LEFT_RIGHT split V2C in a loop reusing one scratch: the loop-carried WAR flag must reach both AIV
# lanes (a5: one cube set per lane).
import pypto.language as pl

B = 4
M = 32
K = 64
N = 64


@pl.program
class SplitLoopLR:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def split_loop_lr(
        self,
        x: pl.Tensor[[M, B * K], pl.FP16],
        w: pl.Tensor[[K, N], pl.FP16],
        scratch: pl.Out[pl.Tensor[[M, K], pl.FP16]],
        out: pl.Out[pl.Tensor[[B * M, N], pl.FP32]],
    ) -> pl.Tensor[[B * M, N], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(B):
            xb = pl.load(x, [0, i * K], [M, K])
            t = pl.add(xb, xb)
            scratch = pl.store(t, [0, 0], scratch)
            s_mat = pl.load(scratch, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
            s_left = pl.move(s_mat, target_memory=pl.MemorySpace.Left)
            z = pl.matmul(s_left, w_right)
            out = pl.store(z, [i * M, 0], out)
        return out
