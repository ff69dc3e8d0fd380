# reject (issue 10, oracle sweep): inside `if i1 == 0:` the load's row (i1 % 2) * 16 is 0 and the store's is
# 16 (disjoint); i1 % 2 over range(2) is i1. No dependency, reject must not error.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        cout: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        bi = pl.tile.get_block_idx()
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        v0 = pl.add(vin, vin)
        for i1 in pl.range(2):
            if i1 == 0:
                sv1 = pl.store(vin, [bi * 32 + 16, 0], sv1)
                g2 = pl.load(sv1, [bi * 32 + (i1 % 2) * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                lhs3 = pl.move(g2, target_memory=pl.MemorySpace.Left)
                cz4 = pl.matmul(lhs3, rhs0)
                cout = pl.store(cz4, [bi * 16, 0], cout)
            s5 = pl.move(acc0, target_memory=pl.MemorySpace.Vec)
            v6 = pl.cast(s5, pl.FP16)
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
        out = pl.store(acc0, [bi * 16, 0], out)
        return out
