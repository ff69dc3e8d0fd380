# A vector store, then pl.tensor.read of one element of it that only the vector lane uses (issue 10). The
# cube's copy of the SHARED read is dropped (no V2C pair), but on a2a3 lane 1's replay issues the scalar
# read too: AIV0's store -> AIV1's read, which only a barrier orders (fence / syncall place one, reject
# names it). On a5 an unsplit function runs on AIV0 only: nothing to order. ROW: rows 0..7 are stored.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        s: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        res: pl.Out[pl.Tensor[[8, 16], pl.FP16]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [8, 16])
        s = pl.store(vin, [0, 0], s)
        x = pl.tensor.read(s, [ROW, 3])
        y = pl.adds(vin, x)
        res = pl.store(y, [0, 0], res)
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        rhs = pl.move(a_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        out = pl.store(acc, [0, 0], out)
        return out
