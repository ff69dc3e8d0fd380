# hunt8a: hunt8a_sampled_residue.py under fence: the V2C pair is ordered at every n (n = 6 included).
# RUN: check --v2c fence
# CHECK: PASS (the file)
# EXIT: 0
import pypto.language as pl


@pl.program
class ModN:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, n: pl.Scalar[pl.INDEX], a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s: pl.InOut[pl.Tensor[[112, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        w = pl.adds(vin, 1.0)
        s = pl.store(w, [0, 0], s)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        cm = pl.load(s, [((n + 1) % 7) * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        cl = pl.move(cm, target_memory=pl.MemorySpace.Left)
        cz = pl.matmul(cl, rhs)
        co = pl.store(cz, [0, 0], co)
        return co
