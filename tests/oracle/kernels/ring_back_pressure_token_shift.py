# Ring back-pressure's adversary (issue 10, found by an adversarial review): the rule counts the pushes and
# pops of ring 0 as written. Here the three hand-written C2V pushes run ahead of their pops, and the upstream
# C2V token for u (cube store -> vector load) goes on the same ring: its pop lands before the fence, its push
# after the cube's store of t. The third push then waits for the token's free, not for the fenced pop's, so
# the vector store of t (line 32) is not ordered before the cube store (line 33). The pass must see the token
# and plan again without the rule: fence / syncall order the pair, reject raises E-V2C-UNFENCED. (The race on
# u, the token's pop taking an author push, is upstream's C2V behaviour: --c2v upstream keeps it.)
import pypto.language as pl


@pl.program
class TokenShift:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 32], pl.FP16],
        t: pl.InOut[pl.Tensor[[16, 32], pl.FP32]],
        u: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        vout: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 32])
        a_l = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        pl.tpush_to_aiv(acc, split=0)
        pl.tpush_to_aiv(acc, split=0)
        pl.tpush_to_aiv(acc, split=0)
        w = pl.cast(vin, pl.FP32)
        t = pl.store(w, [0, 0], t)
        t = pl.store(acc, [0, 0], t)
        u = pl.store(acc, [0, 0], u)
        r = pl.load(u, [0, 0], [16, 32])
        vout = pl.store(r, [0, 0], vout)
        pl.system.fence()
        s0: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
        pl.tfree_to_aic(s0)
        s1: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
        pl.tfree_to_aic(s1)
        s2: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
        pl.tfree_to_aic(s2)
        return t
