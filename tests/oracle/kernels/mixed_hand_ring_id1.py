# A hand-written V2C transport on ring id 1 in a mixed kernel (issue 10, generator coverage): the expander
# must set up the pipe of id 1 (it set up id 0 only, and both lanes waited forever for an initialised pipe).
import pypto.language as pl


@pl.program
class Hw:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        sv: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        sv = pl.store(vin, [0, 0], sv)
        pl.tpush_to_aic(vin, split=0, id=1)
        t: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        pl.tfree_to_aiv(t, id=1)
        g = pl.load(sv, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        l = pl.move(g, target_memory=pl.MemorySpace.Left)
        r = pl.move(g, target_memory=pl.MemorySpace.Right)
        z = pl.matmul(l, r)
        out = pl.store(z, [0, 0], out)
        return out
