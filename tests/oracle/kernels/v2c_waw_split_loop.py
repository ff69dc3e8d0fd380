# Loop-carried V2C write-after-write in a LEFT_RIGHT split function (issue 10): each AIV lane writes its
# columns of rows (i+1)*16 of `out` in iteration i, which the cube overwrites in iteration i+1 (earlier in
# the body). Both lanes are producers; within one iteration the rows differ.
import pypto.language as pl


@pl.program
class V2cWawSplitLoop:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        c: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        cv = pl.load(c, [0, 0], [16, 16])
        for i in pl.range(3):
            z = pl.matmul(x_left, x_right)
            out = pl.store(z, [i * 16, 0], out)
            e = pl.exp(cv)
            out = pl.store(e, [i * 16 + 16, 0], out)
        return out
