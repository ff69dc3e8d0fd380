# pl.tensor.write (a scalar GM write on MTE3) on the vector lane, then a cube load of the same tensor in
# the same iteration (issue 10): a V2C read-after-write the pass must order (fence / syncall) or report
# (reject). The write's value comes from a UB tile (pl.tile.read), so the write is the vector lane's.
# ROW is the written element's row: the cube reads rows 0..7 (ROW 3 meets them, ROW 12 does not).
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        v = pl.tile.read(vin, [0, 0])
        pl.tensor.write(b, [ROW, 5], v)
        b_l = pl.load(b, [0, 0], [8, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(b_l, target_memory=pl.MemorySpace.Left)
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(a_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        out = pl.store(acc, [0, 0], out)
        return out
