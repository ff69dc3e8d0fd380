# reject (issue 10, oracle sweep): `(i0 % 2) * 16` over range(3) spans two periods of 2, so the window is
# no affine form; per iteration it is known (rows 0, 16, 0). The barrier that starts iteration 2 orders
# iteration 1's store (rows 16) before the cube load of rows 16; iteration 2's store (rows 0) does not
# overlap it. reject must not error (a load of rows 0 races with iteration 2's store).
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
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        for i0 in pl.range(3):
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
            sv0 = pl.store(vin, [(i0 % 2) * 16, 0], sv0)
        g1 = pl.load(sv0, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs2 = pl.move(g1, target_memory=pl.MemorySpace.Left)
        cz3 = pl.matmul(lhs2, rhs0)
        cout = pl.store(cz3, [0, 0], cout)
        return cout
