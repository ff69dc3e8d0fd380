# A C2V hand-over through GM read by pl.tile.mgather: the cube stores a matmul result, the vector gathers its
# elements by an index tile. Upstream's ExpandMixedKernel pairs a cube tile.store with a vector tile.load only,
# so under --c2v upstream this pair stays unfenced (a race cvsim reports); --c2v complete orders it.
import pypto.language as pl


@pl.program
class MgatherC2v:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 16], pl.FP16], w: pl.Tensor[[16, 16], pl.FP16], gidx: pl.Tensor[[16, 16], pl.INT32],
          scratch: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(w, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        scratch_1 = pl.store(acc, [0, 0], scratch)
        gi = pl.load(gidx, [0, 0], [16, 16])
        g = pl.tile.mgather(scratch_1, gi, "elem")
        out_1 = pl.store(g, [0, 0], out)
        return out_1
