# The vector core scatters into a GM scratch with pl.tile.mscatter and the cube loads the scratch: a V2C
# hand-over through GM whose addresses are data. cvsim's pass must order it (--v2c fence / syncall); without
# it (--v2c off) the cube's load races the scatter.
import pypto.language as pl


@pl.program
class MscatterV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP16], sidx: pl.Tensor[[16, 16], pl.INT32], w: pl.Tensor[[16, 16], pl.FP16],
          scratch: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        v = pl.load(x, [0, 0], [16, 16])
        si = pl.load(sidx, [0, 0], [16, 16])
        scratch_1 = pl.tile.mscatter(v, si, scratch)
        a_l = pl.load(scratch_1, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(w, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        out_1 = pl.store(acc, [0, 0], out)
        return out_1
