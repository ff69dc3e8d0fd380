# reject (issue 10, oracle sweep): a V2C tile move between the vector store and the cube load orders them
# although the kernel also holds hand-written transports on the same ring (FIFO: the move's pop takes the
# move's push, counted over the unrolled function); reject must not error.
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
        sv0 = pl.store(vin, [0, 0], sv0)
        m0 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
        lhs1 = pl.move(m0, target_memory=pl.MemorySpace.Left)
        g2 = pl.load(sv0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs3 = pl.move(g2, target_memory=pl.MemorySpace.Left)
        cz4 = pl.matmul(lhs3, rhs0)
        cout = pl.store(cz4, [0, 0], cout)
        for i5 in pl.range(2):
            pl.tpush_to_aic(vin, split=0)
            hr6: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)
            lhs7 = pl.move(hr6, target_memory=pl.MemorySpace.Left)
            pl.tfree_to_aiv(hr6)
        out = pl.store(acc0, [0, 0], out)
        return out
