# A cube store, then pl.tensor.read (a scalar GM read) of one element of it whose value the vector lane
# uses (issue 10): a C2V read-after-write. Upstream's ExpandMixedKernel pairs a cube store with a vector
# tile.load only, so --c2v upstream leaves this read unordered (a race); --c2v complete orders it under every
# --v2c policy. ROW: the read element's row (the cube writes rows 0..7).
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        c: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        res: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l = pl.load(a, [0, 0], [8, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(lhs, rhs)
        out = pl.store(acc, [0, 0], out)
        x = pl.tensor.read(out, [ROW, 3])
        vin = pl.load(c, [0, 0], [16, 16])
        y = pl.tile.adds(vin, x)
        res = pl.store(y, [0, 0], res)
        return res
