# Split UP_DOWN on a5 with a loop-carried WAR (every iteration stores rows 32..63, a later load reads them):
# the reverse flag would reach one AIV only (issue 10.7), so the fenced expansion orders the WAR with a barrier.
import pypto.language as pl


@pl.program
class G:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def g(self, a: pl.Tensor[[32, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.InOut[pl.Tensor[[160, 64], pl.FP16]], out: pl.Out[pl.Tensor[[96, 192], pl.FP32]]) -> pl.Tensor[[96, 192], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        tail = pl.slice(scratch, [128, 64], [32, 0])
        for i in pl.range(3):
            t0 = pl.load(a, [0, 0], [32, 64])
            u0 = pl.adds(t0, i)
            scratch = pl.store(u0, [32, 0], scratch)
            if i % 2 == 1:
                g1 = pl.load(scratch, [i * 32 + 32, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
                l1 = pl.move(g1, target_memory=pl.MemorySpace.Left)
                z1 = pl.matmul(l1, w_right)
                out = pl.store(z1, [i * 32, 64], out)
            else:
                pass
            g2 = pl.load(scratch, [i * 32, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
            l2 = pl.move(g2, target_memory=pl.MemorySpace.Left)
            z2 = pl.matmul(l2, w_right)
            out = pl.store(z2, [i * 32, 128], out)
        return out
