# property 4 (issue 10, oracle sweep; a5, split LEFT_RIGHT, delay 50): the loop-carried write-after-read of
# sv0 gets the pass's flag pairs, which on a5 with both AIV lanes are one protocol per lane (the AIC's op on
# id X and its twin on X + stride, the AIV's lane branch). The final re-check reads them so, and finds that
# the author's fence + syncall and the flags order and publish the store of sv1 before the cube's load
# after the loop: its token is removed.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        cout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        sw0: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
        sw1: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        pl.system.fence()
        pl.system.syncall(core_type="mix", mode="soft")
        vw0 = pl.slice(sv1, [16, 16], [16, 0])
        vs1 = pl.store(vin, [0, 0], vw0)
        acc6 = pl.matmul(lhs0, rhs0)
        for i2, (c3,) in pl.range(2, init_values=(acc6,)):
            acc11 = pl.matmul(lhs0, rhs0)
            for i7, (c8,) in pl.range(1, init_values=(acc11,)):
                sv0 = pl.store(vin, [16, 0], sv0)
                pl.system.sync_set(8, pipe=pl.PipeType.V, core_type="aiv")
                pl.system.sync_wait(8, pipe=pl.PipeType.MTE2, core_type="aic")
                g12 = pl.load(sv0, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
                lhs13 = pl.move(g12, target_memory=pl.MemorySpace.Left)
                cz14 = pl.matmul(lhs13, rhs0)
                cout = pl.store(cz14, [0, 0], cout)
                acc9 = pl.matmul_acc(c8, lhs13, rhs0)
                acc10 = pl.yield_(acc9)
            g15 = pl.load(sw0, [0, 0], [16, 16])
            v16 = pl.cast(g15, pl.FP16)
            sw0 = pl.store(g15, [(i2 % 2) * 16, 0], sw0)
            acc4 = pl.matmul_acc(c3, lhs0, rhs0)
            acc5 = pl.yield_(acc4)
        g17 = pl.load(sv1, [16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs18 = pl.move(g17, target_memory=pl.MemorySpace.Left)
        cz19 = pl.matmul(lhs18, rhs0)
        cout = pl.store(cz19, [0, 0], cout)
        acc24 = pl.matmul(lhs0, rhs0)
        for i20, (c21,) in pl.range(3, init_values=(acc24,)):
            m25 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
            lhs26 = pl.move(m25, target_memory=pl.MemorySpace.Left)
            pl.tpush_to_aiv(acc0, split=0, id=1)
            hr27: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
            v28 = pl.cast(hr27, pl.FP16)
            pl.tfree_to_aic(hr27, id=1)
            for i29 in pl.range(2):
                pl.system.fence()
                pl.system.syncall(core_type="mix", mode="soft")
                s30 = pl.move(c21, target_memory=pl.MemorySpace.Vec)
                v31 = pl.cast(s30, pl.FP16)
            acc22 = pl.matmul_acc(c21, lhs26, rhs0)
            acc23 = pl.yield_(acc22)
        pl.tpush_to_aiv(acc23, split=0, id=1)
        hr32: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
        v33 = pl.cast(hr32, pl.FP16)
        pl.tfree_to_aic(hr32, id=1)
        out = pl.store(acc23, [0, 0], out)
        return out
