# Loop-carried V2C write-after-read in an UP_DOWN split function (issue 10; each AIV lane reads its
# half): iteration i's vector lane reads rows (i+1)*16 of `io`, which the cube overwrites in iteration
# i+1 (earlier in the body). Within one iteration the rows differ: the only hazard is vector-first.
import pypto.language as pl


@pl.program
class V2cWarSplitLoop:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        io: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[48, 16], pl.FP32]],
    ) -> pl.Tensor[[48, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            z = pl.matmul(x_left, x_right)
            io = pl.store(z, [i * 16, 0], io)
            v = pl.load(io, [i * 16 + 16, 0], [16, 16])
            e = pl.exp(v)
            out = pl.store(e, [i * 16, 0], out)
        return out
