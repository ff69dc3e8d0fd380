# A mixed InCore kernel whose V2C transport is written by hand (tpush_to_aic / tpop_from_aiv) instead of a
# boundary move. On a5 the V2C ring carries NZ tiles: the expander must adapt the pushed row-major tile to
# NZ, as it does for the moves it turns into transports (else W-V2C-LAYOUT and a wrong result).
import pypto.language as pl


@pl.program
class MixedHandPush:
    @pl.function(type=pl.FunctionType.InCore)
    def mixed_hand_push(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        t2 = pl.add(t, t)
        pl.tpush_to_aic(t2, split=0)
        lhs: pl.Tile[[16, 32], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)
        lhs_left = pl.move(lhs, target_memory=pl.MemorySpace.Left)
        b_mat = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(lhs_left, b_right)
        pl.tfree_to_aiv(lhs)
        out = pl.store(z, [0, 0], out)
        return out
