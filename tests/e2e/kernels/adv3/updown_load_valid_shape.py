# A split (UP_DOWN) mixed kernel whose vector side loads a boundary tile: a 32-row window of a 24-row tensor
# with valid_shape [24, 64]. Each AIV lane gets its own part of the valid rows (lane 0 rows 0-15, lane 1 rows
# 16-23), as PyPTO's SplitVectorKernel localizes a load's valid_shape; lane 1 reading 16 rows from row 16
# would run past the tensor (a false E-OOB), and storing them would overrun `out`.
import pypto.language as pl


@pl.program
class UpDownValid:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        a: pl.Tensor[[24, 64], pl.FP16],
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[24, 64], pl.FP16]],
        acc_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [32, 64], valid_shape=[24, 64])
        u = pl.add(t, t)
        out = pl.store(u, [0, 0], out)
        xm = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(xl, wr)
        acc_out = pl.store(z, [0, 0], acc_out)
        return acc_out
