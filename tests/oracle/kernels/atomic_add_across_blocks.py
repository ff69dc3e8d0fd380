# Oracle fixture (issue 10 class 6): every block accumulates into out[0:16] with atomic=ADD.
# (the expansion of a mixed kernel, kept as written so the fixture does not change with the expander)
import pypto.language as pl


@pl.program
class Finding:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        lhs0: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(a_l, target_memory=pl.Mem.Left)
        b_l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        rhs0: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(b_l, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(lhs0, rhs0)
        out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(acc, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
