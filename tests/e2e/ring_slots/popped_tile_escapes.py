# A popped tile leaves the if arm it was popped in through a yield and is read after the branch. No
# single tfree in the arm or after the branch frees it exactly once, after its last use, on every path:
# the expander must refuse (E-UNSUPPORTED at the boundary move) rather than free it too early.
import pypto.language as pl

T = 2


@pl.program
class Escape:
    @pl.function(type=pl.FunctionType.InCore)
    def escape(
        self,
        x: pl.Tensor[[32, 32], pl.FP16],
        y: pl.Tensor[[32, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[T * 32, 32], pl.FP32]],
    ) -> pl.Tensor[[T * 32, 32], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(T):
            z = pl.matmul(x_left, x_right)
            if i == 0:
                zv = pl.move(z, target_memory=pl.MemorySpace.Vec)
                a = pl.yield_(zv)
            else:
                yv = pl.load(y, [0, 0], [32, 32], target_memory=pl.MemorySpace.Vec)
                a = pl.yield_(yv)
            e = pl.add(a, a)
            out = pl.store(e, [i * 32, 0], out)
        return out
