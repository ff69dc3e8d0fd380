# Issue 10: the twin of the loop-carried WAR. Each iteration the cube writes one scratch and the vector
# lane reads it back; upstream's token orders the read after this iteration's write, and the next
# iteration's cube store overwriting the rows still being read is V2C (the vector's read runs first).
import pypto.language as pl


@pl.program
class C2vLoopWar:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        scratch: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            z = pl.matmul(x_left, x_right)
            scratch = pl.store(z, [0, 0], scratch)
            row = pl.load(scratch, [0, 0], [16, 16], target_memory=pl.MemorySpace.Vec)
            e = pl.exp(row)
            out = pl.store(e, [i * 16, 0], out)
        return out
