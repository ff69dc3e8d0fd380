# property 4 (issue 10, oracle sweep): the vector load of sw0 (line 41) before the cube store (line 44) would get
# a write-after-read token, but the write-after-write barrier placed before that cube store (the vector store
# at line 38 has no balanced fence placement) orders it too: the token is redundant and dropped.
import pypto.language as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def kernel(
        self,
        a: pl.Tensor[[32, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        sv0: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        sc0: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        sv1: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        sc1: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        cout: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        sw0: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
        sw1: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
        vout: pl.Out[pl.Tensor[[64, 16], pl.FP16]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [32, 16])
        a_l = pl.load(a, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)
        b_l = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs0)
        s0 = pl.move(acc0, target_memory=pl.MemorySpace.Vec)
        v1 = pl.cast(s0, pl.FP16)
        for i2 in pl.range(3):
            pl.system.fence()
            pl.system.syncall(core_type="mix", mode="soft")
            s3 = pl.move(acc0, target_memory=pl.MemorySpace.Vec)
            v4 = pl.cast(s3, pl.FP16)
        w5 = pl.cast(v1, pl.FP32)
        sw0 = pl.store(w5, [0, 0], sw0)
        v6 = pl.add(v1, v1)
        sv1 = pl.store(vin, [32, 0], sv1)
        g7 = pl.load(sw0, [0, 0], [32, 16])
        v8 = pl.cast(g7, pl.FP16)
        sw0 = pl.store(g7, [0, 0], sw0)
        sw0 = pl.store(acc0, [0, 0], sw0)
        vw11 = pl.slice(sv1, [32, 16], [0, 0])
        g9 = pl.load(vw11, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        lhs10 = pl.move(g9, target_memory=pl.MemorySpace.Left)
        cz12 = pl.matmul(lhs10, rhs0)
        cout = pl.store(cz12, [0, 0], cout)
        w13 = pl.cast(vin, pl.FP32)
        out = pl.store(w13, [0, 0], out)
        return out
