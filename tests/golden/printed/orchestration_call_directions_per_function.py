# PyPTO derives call directions per function: in 'helper' the Out parameter 'sc' has no earlier writer, so its
# launch of 'w' passes it OutputExisting, published without a lookup, although the caller's own 'w' wrote the
# same scratch just before the call. Nothing orders the two writes: E-RACE-WAW at the callee's launch. Inlining the
# call must not let the caller's writer promote the callee's Out argument (docs/DECISIONS.md, "An orchestration
# called by another").
# RUN: check --entry main --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAW 30 between launches in AUTO scopes
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def w(x: pl.Tensor[[16, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        s1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], s)
        return s1

    @pl.function(type=pl.FunctionType.InCore)
    def r(s: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        sv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(sv, 1.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def helper(self, x: pl.Tensor[[16, 64], pl.FP16], sc: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ret1: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.w, x, sc)
        s1: pl.Tensor[[16, 64], pl.FP16] = ret1[0]
        ret2: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.r, s1, out)
        o1: pl.Tensor[[16, 64], pl.FP16] = ret2[0]
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        ret0: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.w, x, scratch)
        s0: pl.Tensor[[16, 64], pl.FP16] = ret0[0]
        o: pl.Tensor[[16, 64], pl.FP16] = self.helper(x, s0, out)
        return o
