# reject (issue 10, oracle sweep): `if i1 > 0:` in a 1-trip loop never runs, so its store and load are no
# dependency; reject must not error.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        cout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        v0 = pl.add(vin, vin)
        for i1 in pl.range(1):
            if i1 > 0:
                v2 = pl.add(vin, vin)
                sv1 = pl.store(vin, [16, 0], sv1)
                g3 = pl.load(sv1, [(i1 % 2) * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                lhs4 = pl.move(g3, target_memory=pl.MemorySpace.Left)
                cz5 = pl.matmul(lhs4, rhs0)
                cout = pl.store(cz5, [0, 0], cout)
        out = pl.store(acc0, [0, 0], out)
        return out
