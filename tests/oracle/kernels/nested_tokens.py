# property 4 (issue 10, oracle sweep): two V2C pairs whose store-to-load intervals nest (store sv0, store sv1,
# load sv1, load sv0). The inner pair's token is pushed after both stores and popped before both loads, so
# --v2c fence needs that one token only (the outer one used to be added too and was redundant).
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        sv1: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        cout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        sv0 = pl.store(vin, [0, 0], sv0)
        v0 = pl.add(vin, vin)
        sv1 = pl.store(v0, [0, 0], sv1)
        g1 = pl.load(sv1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs2 = pl.move(g1, target_memory=pl.MemorySpace.Left)
        cz3 = pl.matmul(lhs2, rhs0)
        cout = pl.store(cz3, [0, 0], cout)
        g4 = pl.load(sv0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs5 = pl.move(g4, target_memory=pl.MemorySpace.Left)
        cz6 = pl.matmul(lhs5, rhs0)
        cout = pl.store(cz6, [0, 0], cout)
        out = pl.store(acc0, [0, 0], out)
        return out
