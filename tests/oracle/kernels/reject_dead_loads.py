# reject / fence (issue 10, oracle sweep): a vector load whose tile nothing reads (before a cube store of the
# same rows) and a cube load whose tile nothing reads (after a vector store of the same rows) are removed by
# the lane split's dead-code elimination, so they are no V2C dependency: reject must not error and fence /
# syncall add nothing. Reading either tile makes its dependency real.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv1: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        sw0: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        cout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        g0 = pl.load(sw0, [0, 0], [16, 16])
        v1 = pl.cast(g0, pl.FP16)
        sw0 = pl.store(acc0, [0, 0], sw0)
        sv1 = pl.store(vin, [0, 0], sv1)
        g8 = pl.load(sv1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs9 = pl.move(g8, target_memory=pl.MemorySpace.Left)
        out = pl.store(acc0, [0, 0], out)
        return out
