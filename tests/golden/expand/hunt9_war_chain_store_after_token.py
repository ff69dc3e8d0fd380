# hunt9: the racy twin of hunt9_war_chain_c2v_token.py: the FIXP store computed from the cube's load of s0 runs
# after the C2V token's push, so nothing orders the load before the vector's store of s0 (E-RACE-WAR under off).
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 30:17
# EXIT: 1
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], s1: pl.InOut[pl.Tensor[[96, 16], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        a_m = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs0 = pl.move(a_m, target_memory=pl.MemorySpace.Left)
        b_m = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(b_m, target_memory=pl.MemorySpace.Right)
        acc0 = pl.matmul(lhs0, rhs)
        for o in pl.range(0, 1):
            cm1 = pl.load(s0, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            cl2 = pl.move(cm1, target_memory=pl.MemorySpace.Left)
            cz3 = pl.matmul(cl2, rhs)
            s1 = pl.store(acc0, [o * 16, 0], s1)
            co = pl.store(cz3, [0, 0], co)
            for j in pl.range(0, 2):
                g4 = pl.load(s1, [0, 0], [16, 16])
                h5 = pl.add(g4, vin)
                out = pl.store(h5, [0, 0], out)
                w6 = pl.adds(vin, 1.0)
                s0 = pl.store(w6, [0, 0], s0)
        return out
