# a Vec tile in DN layout (col_major, none_box) stored to an ND tensor on a5, inside a mixed kernel's
# vector side after the cube's result arrives: rejected like the NZ case (pto-isa a5 CheckStaticVec).
# RUN: check --target a5 --v2c fence
# ERROR: E-TYPE 25:24 DN layout
import pypto.language as pl


@pl.program
class StoreDn:
    @pl.function(type=pl.FunctionType.InCore)
    def f(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        v = pl.move(acc, target_memory=pl.MemorySpace.Vec)
        e = pl.exp(v)
        d = pl.move(e, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.none_box)
        out = pl.store(d, [0, 0], out)
        return out
