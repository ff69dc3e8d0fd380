# reject (issue 10, oracle sweep): an author's flag pair inside the loop that holds the cube load, before
# the load in its body, orders the vector store before every iteration's load (the first wait takes the
# first set, which follows the store); reject must not error.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
        cout: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        sv0 = pl.store(vin, [0, 0], sv0)
        for i0 in pl.range(2):
            pl.system.sync_set(0, pipe=pl.PipeType.MTE3, core_type="aiv")
            pl.system.sync_wait(0, pipe=pl.PipeType.MTE2, core_type="aic")
            g1 = pl.load(sv0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            lhs2 = pl.move(g1, target_memory=pl.MemorySpace.Left)
            cz3 = pl.matmul(lhs2, rhs0)
            cout = pl.store(cz3, [0, 0], cout)
        out = pl.store(acc0, [0, 0], out)
        return out
