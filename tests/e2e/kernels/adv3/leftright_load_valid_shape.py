# The LEFT_RIGHT twin of updown_load_valid_shape.py: a 64-column window of a 40-column tensor with
# valid_shape [32, 40]; lane 0 gets columns 0-31, lane 1 columns 32-39.
import pypto.language as pl


@pl.program
class LeftRightValid:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def k(
        self,
        a: pl.Tensor[[32, 40], pl.FP16],
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[32, 40], pl.FP16]],
        acc_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [32, 64], valid_shape=[32, 40])
        u = pl.add(t, t)
        out = pl.store(u, [0, 0], out)
        xm = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(xl, wr)
        acc_out = pl.store(z, [0, 0], acc_out)
        return acc_out
