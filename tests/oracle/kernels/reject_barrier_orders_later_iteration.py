# reject (issue 10, oracle sweep): the cube load of iteration 0 reads rows 0-15, which the vector store
# (rows 16-31) does not touch; iteration 1 reads rows 16-31 after iteration 0's barrier. Per instance
# every overlapping pair is ordered; reject must not error.
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
        sv0 = pl.store(vin, [16, 0], sv0)
        for i0 in pl.range(2):
            g1 = pl.load(sv0, [(i0 % 2) * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            lhs2 = pl.move(g1, target_memory=pl.MemorySpace.Left)
            cz3 = pl.matmul(lhs2, rhs0)
            cout = pl.store(cz3, [0, 0], cout)
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
        out = pl.store(acc0, [0, 0], out)
        return out
