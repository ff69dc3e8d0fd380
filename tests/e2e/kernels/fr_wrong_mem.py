# Hand-written operands in the wrong memory: a matmul of two Mat tiles and an exp of the Acc result.
import pypto.language as pl


@pl.program
class WrongMem:
    @pl.function(type=pl.FunctionType.InCore)
    def mm_exp(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        z = pl.matmul(x_mat, w_mat)
        e = pl.exp(z)
        out = pl.store(e, [0, 0], out)
        return out
