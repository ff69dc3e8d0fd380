# reject (issue 10, oracle sweep): an author's flag pair inside a 1-trip loop between the vector store and
# the cube load orders them (the loop runs once: one set, one wait); reject must not error.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[32, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        cout: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [32, 16])
        a_l = pl.load(a, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        sv0 = pl.store(vin, [32, 0], sv0)
        v0 = pl.add(vin, vin)
        for i1 in pl.range(1):
            pl.system.sync_set(0, pipe=pl.PipeType.MTE3, core_type="aiv")
            pl.system.sync_wait(0, pipe=pl.PipeType.MTE2, core_type="aic")
            acc2 = pl.matmul(lhs0, rhs0)
        vw5 = pl.slice(sv0, [32, 16], [32, 0])
        g3 = pl.load(vw5, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        lhs4 = pl.move(g3, target_memory=pl.MemorySpace.Left)
        cz6 = pl.matmul(lhs4, rhs0)
        cout = pl.store(cz6, [0, 0], cout)
        w7 = pl.cast(v0, pl.FP32)
        out = pl.store(w7, [0, 0], out)
        return out
