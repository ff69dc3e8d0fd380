# property 4 (issue 10, oracle sweep; a2a3, 2 blocks): the write-after-read of sw1 (vector load g1, cube
# store in the loop) is ordered by the read-after-write token of sv1: the token's publishing fence, after
# the load on the vector lane, drains it (SPEC 4.1) before the token's push, which the cube pops before
# its store. No token of its own.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        sv0: pl.Out[pl.Tensor[[64, 32], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[64, 32], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
        cout: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        sw0: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
        sw1: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
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
        acc0 = pl.matmul(lhs0, rhs0)
        g1 = pl.load(sw1, [bi * 32 + 0, 0], [16, 32])
        v2 = pl.cast(g1, pl.FP16)
        acc7 = pl.matmul(lhs0, rhs0)
        for i3, (c4,) in pl.range(2, init_values=(acc7,)):
            if i3 == 0:
                sv1 = pl.store(vin, [bi * 32 + 0, 0], sv1)
                pl.system.sync_set(8, pipe=pl.PipeType.ALL, core_type="aic")
                pl.system.sync_wait(8, pipe=pl.PipeType.ALL, core_type="aiv")
                g8 = pl.load(sv1, [bi * 32 + 0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
                lhs9 = pl.move(g8, target_memory=pl.MemorySpace.Left)
                cz10 = pl.matmul(lhs9, rhs0)
                cout = pl.store(cz10, [bi * 16, 0], cout)
                sw1 = pl.store(acc0, [bi * 32 + (i3 % 2) * 16, 0], sw1)
                pl.system.sync_set(1, pipe=pl.PipeType.MTE3, core_type="aiv")
                pl.system.sync_wait(1, pipe=pl.PipeType.MTE2, core_type="aic")
            else:
                pl.system.sync_set(2, pipe=pl.PipeType.MTE3, core_type="aiv")
                pl.system.sync_wait(2, pipe=pl.PipeType.MTE2, core_type="aic")
                vw11 = pl.slice(sv0, [16, 32], [bi * 32 + 0, 0])
                vs12 = pl.store(vin, [0, 0], vw11)
                pl.tpush_to_aiv(c4, split=0)
                hr13: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
                v14 = pl.cast(hr13, pl.FP16)
                pl.tfree_to_aic(hr13)
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
            s15 = pl.move(c4, target_memory=pl.MemorySpace.Vec)
            v16 = pl.cast(s15, pl.FP16)
            acc5 = pl.matmul_acc(c4, lhs0, rhs0)
            acc6 = pl.yield_(acc5)
        v17 = pl.add(v2, vin)
        w18 = pl.cast(v2, pl.FP32)
        out = pl.store(w18, [bi * 16, 0], out)
        return out
