# reject (issue 10, oracle sweep): each cluster stores rows bi * 32 + (i0 % 2) * 16 over range(3) (two
# periods of 2: no affine form, but always inside the cluster's own 32 rows), and the tile move orders its
# own cluster's stores before its cube load of rows bi * 32 + 16. No cluster touches another's rows, so
# reject must not error (loading the other cluster's rows is a cross-cluster race).
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        cout: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        bi = pl.tile.get_block_idx()
        vin = pl.load(a, [0, 0], [16, 16])
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        for i0 in pl.range(3):
            sv0 = pl.store(vin, [bi * 32 + (i0 % 2) * 16, 0], sv0)
        pl.system.fence()
        m1 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
        lhs1 = pl.move(m1, target_memory=pl.MemorySpace.Left)
        acc1 = pl.matmul(lhs1, rhs0)
        out = pl.store(acc1, [bi * 16, 0], out)
        g2 = pl.load(sv0, [bi * 32 + 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs3 = pl.move(g2, target_memory=pl.MemorySpace.Left)
        cz4 = pl.matmul(lhs3, rhs0)
        cout = pl.store(cz4, [bi * 16, 0], cout)
        return cout
