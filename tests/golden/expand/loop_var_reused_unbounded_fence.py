# loop_var_reused_unbounded.py under --v2c fence at n = 2: the vector store of iteration 1 (rows 16..31)
# is ordered before the cube's load of them (it was E-RACE-RAW: the dependency was not seen).
# RUN: check --v2c fence --input n=2
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class LoopVarReusedUnbounded:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP16],
        w: pl.Tensor[[64, 64], pl.FP16],
        n: pl.Scalar[pl.INDEX],
        scratch: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(n):
            xv = pl.load(x, [0, 0], [16, 64])
            tv = pl.add(xv, xv)
            scratch = pl.store(tv, [i * 16, 0], scratch)
        cm = pl.load(scratch, [16, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, w_right)
        out = pl.store(cz, [0, 0], out)
        for i in pl.range(1):
            cm2 = pl.load(scratch, [48, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
            cl2 = pl.move(cm2, target_memory=pl.MemorySpace.Left)
            cz2 = pl.matmul(cl2, w_right)
            out = pl.store(cz2, [0, 0], out)
        return out
