# reject under a GM visibility delay (issue 10): the vector store of sv0 sits in a loop (NESTED), the
# system.fence() that publishes it after the loop (FENCE_AT), and the tile move of vin to the cube (a V2C
# transport) after that orders the store before the cube load. The fence runs after every iteration's
# store and before the release: published, reject accepts. Variants: the fence before the store in the
# body (a later iteration's fence precedes nothing of the last store), the fence in one arm of a branch.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        cout: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        for i in pl.range(2):
            sv0 = pl.store(vin, [i * 16, 0], sv0)
        pl.system.fence()
        m1 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
        lhs2 = pl.move(m1, target_memory=pl.MemorySpace.Left)
        g3 = pl.load(sv0, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        lhs4 = pl.move(g3, target_memory=pl.MemorySpace.Left)
        cz5 = pl.matmul(lhs4, rhs0)
        cout = pl.store(cz5, [0, 0], cout)
        acc6 = pl.matmul(lhs2, rhs0)
        out = pl.store(acc6, [0, 0], out)
        return out
