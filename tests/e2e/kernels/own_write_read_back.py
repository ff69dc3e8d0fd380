# A vector core stores rows of t and loads them back (line 22 -> line 23): one core, ordered by its own GM
# dependency. Under a GM visibility delay the core still reads its own completed write (the delay is to other
# cores, SPEC 4.5); before, the model returned the old bytes and `check --visibility-delay 50` reported a false
# E-MISMATCH, also under --v2c off.
import pypto.language as pl


@pl.program
class OwnWrite:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        t: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        va = pl.load(a, [0, 0], [16, 16])
        rhs = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left), rhs)
        w = pl.cast(va, pl.FP32)
        t = pl.store(w, [0, 0], t)
        g = pl.load(t, [0, 0], [16, 16])
        s = pl.move(acc, target_memory=pl.MemorySpace.Vec)
        out = pl.store(pl.add(g, s), [0, 0], out)
        return out
