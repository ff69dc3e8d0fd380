# matmul_acc as a statement accumulates into its acc tile in place (L0C): the simulator did, the reference
# dropped the result, so a correct kernel was a false E-MISMATCH.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        x_right = pl.move(x_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(x_left, x_right)
        pl.tile.matmul_acc(acc, x_left, x_right)
        out = pl.store(acc, [0, 0], out)
        return out
