# property 4 (issue 10, oracle sweep): the store and the load sit in the 'if i0 > 0' arm of a 2-trip loop, so
# one iteration runs them: the RAW needs one ordering, the loop-carried write-after-read none (the second
# barrier --v2c syncall used to add after the load was redundant).
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
        for i0 in pl.range(2):
            if i0 > 0:
                vw1 = pl.slice(sv0, [16, 16], [0, 0])
                vs2 = pl.store(vin, [0, 0], vw1)
                g3 = pl.load(sv0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                lhs4 = pl.move(g3, target_memory=pl.MemorySpace.Left)
                cz5 = pl.matmul(lhs4, rhs0)
                cout = pl.store(cz5, [0, 0], cout)
        out = pl.store(acc0, [0, 0], out)
        return out
