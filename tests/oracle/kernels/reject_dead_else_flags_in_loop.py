# reject (issue 10, oracle sweep): the else arm of `if i0 == 0:` in a 1-trip loop never runs (its store and
# load are no dependency) and the flag pair in the loop is not needed; reject must not error.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        sv0: pl.Out[pl.Tensor[[64, 32], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[64, 32], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        cout: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        vout: pl.Out[pl.Tensor[[64, 32], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        bi = pl.tile.get_block_idx()
        vin = pl.load(a, [0, 0], [16, 32])
        a_l = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        for i0 in pl.range(1):
            if i0 == 0:
                m1 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
                lhs2 = pl.move(m1, target_memory=pl.MemorySpace.Left)
            else:
                vw3 = pl.slice(sv1, [16, 32], [bi * 32 + 0, 0])
                vs4 = pl.store(vin, [0, 0], vw3)
                vw7 = pl.slice(sv1, [16, 32], [bi * 32 + (i0 % 2) * 16, 0])
                g5 = pl.load(vw7, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
                lhs6 = pl.move(g5, target_memory=pl.MemorySpace.Left)
                cz8 = pl.matmul(lhs6, rhs0)
                cout = pl.store(cz8, [bi * 16, 0], cout)
            pl.system.sync_set(0, pipe=pl.PipeType.MTE3, core_type="aiv")
            pl.system.sync_wait(0, pipe=pl.PipeType.MTE2, core_type="aic")
        v9 = pl.add(vin, vin)
        v10 = pl.add(v9, v9)
        out = pl.store(acc0, [bi * 16, 0], out)
        return out
