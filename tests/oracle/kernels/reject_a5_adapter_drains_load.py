# a5: the vector load of sw0 (g5) is read by a V-pipe cast (v6) before the hand-written push of vin; the
# expander puts vin's NZ adapter (a V-pipe move) right before that push, so the in-order V pipe runs it after
# the cast, hence after the load completed: the push, its pop and the cube store that follows are ordered after
# the read (reject errored on it: the 10,000-kernel sweep's last false rejects). On a2a3 (no adapter) it races.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        sv0: pl.Out[pl.Tensor[[32, 32], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[32, 32], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        cout: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        sw0: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        sw1: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        vout: pl.Out[pl.Tensor[[32, 32], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 32])
        a_l = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        pl.tpush_to_aiv(acc0, split=0, id=1)
        hr0: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
        v1 = pl.cast(hr0, pl.FP16)
        pl.tfree_to_aic(hr0, id=1)
        w2 = pl.cast(v1, pl.FP32)
        sw0 = pl.store(w2, [16, 0], sw0)
        s3 = pl.move(acc0, target_memory=pl.MemorySpace.Vec)
        v4 = pl.cast(s3, pl.FP16)
        g5 = pl.load(sw0, [0, 0], [16, 32])
        v6 = pl.cast(g5, pl.FP16)
        pl.tpush_to_aic(vin, split=0, id=1)
        hr7: pl.Tile[[16, 32], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        lhs8 = pl.move(hr7, target_memory=pl.MemorySpace.Left)
        pl.tfree_to_aiv(hr7, id=1)
        sw0 = pl.store(acc0, [0, 0], sw0)
        pl.tpush_to_aiv(acc0, split=0, id=1)
        hr9: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0, id=1)
        v10 = pl.cast(hr9, pl.FP16)
        pl.tfree_to_aic(hr9, id=1)
        m11 = pl.move(v6, target_memory=pl.MemorySpace.Mat)
        lhs12 = pl.move(m11, target_memory=pl.MemorySpace.Left)
        w13 = pl.cast(v1, pl.FP32)
        out = pl.store(w13, [0, 0], out)
        return out
