# reject (issue 10, oracle sweep): a hand-written tpush_to_aic / tpop_from_aiv pair (ring id 1) between the
# vector store and the cube load orders them (the k-th pop takes the k-th push of its ring, and the push
# runs on the store's MTE3 pipe after it); reject must not error.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        cout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        pl.tpush_to_aic(vin, split=0, id=1)
        hr0: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        lhs1 = pl.move(hr0, target_memory=pl.MemorySpace.Left)
        pl.tfree_to_aiv(hr0, id=1)
        sv0 = pl.store(vin, [0, 0], sv0)
        pl.tpush_to_aic(vin, split=0, id=1)
        hr2: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        lhs3 = pl.move(hr2, target_memory=pl.MemorySpace.Left)
        pl.tfree_to_aiv(hr2, id=1)
        g4 = pl.load(sv0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs5 = pl.move(g4, target_memory=pl.MemorySpace.Left)
        cz6 = pl.matmul(lhs5, rhs0)
        cout = pl.store(cz6, [0, 0], cout)
        out = pl.store(acc0, [0, 0], out)
        return out
