# property 4 (issue 10, oracle sweep; a2a3, split UP_DOWN, 2 blocks, --v2c syncall): the vector load of sw1
# before the loop must complete before the cube's store of sw1 in the loop. The barrier syncall places before
# the loop is more than needed: its fence alone, pinned to the vector lane, drains the load before the
# loop's boundary push of vin, which the cube pops before each store. The final re-check keeps the fence only.
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
        w0 = pl.cast(vin, pl.FP32)
        sw1 = pl.store(w0, [bi * 32 + 16, 0], sw1)
        m1 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
        lhs2 = pl.move(m1, target_memory=pl.MemorySpace.Left)
        acc3 = pl.matmul(lhs2, rhs0)
        g4 = pl.load(sw1, [bi * 32 + 0, 0], [16, 32])
        v5 = pl.cast(g4, pl.FP16)
        for i6 in pl.range(3):
            m7 = pl.move(vin, target_memory=pl.MemorySpace.Mat)
            lhs8 = pl.move(m7, target_memory=pl.MemorySpace.Left)
            sw1 = pl.store(acc0, [bi * 32 + 0, 0], sw1)
            acc9 = pl.matmul(lhs2, rhs0)
        pl.tpush_to_aic(vin, split=0, id=1)
        hr10: pl.Tile[[16, 32], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        lhs11 = pl.move(hr10, target_memory=pl.MemorySpace.Left)
        pl.tfree_to_aiv(hr10, id=1)
        w12 = pl.cast(v5, pl.FP32)
        sw0 = pl.store(w12, [bi * 32 + 16, 0], sw0)
        w13 = pl.cast(v5, pl.FP32)
        out = pl.store(w13, [bi * 16, 0], out)
        return out
