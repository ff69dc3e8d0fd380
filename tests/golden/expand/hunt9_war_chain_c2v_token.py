# hunt9 (hunt8a war_chain_min): the cube loads s0 (line 24), and its tile feeds (move, matmul) the FIXP store of co,
# which precedes the FIXP store of s1 and upstream's C2V token push after it; the vector pops the token before
# its loop, which stores s0. The in-order FIXP pipe runs the push after the co store, which waits for the load,
# so the load is complete before the vector's store of s0 (load_drained_by_fixp). Reject judged the function
# without the token it plans itself and raised E-V2C-UNFENCED; the function with the pass's own orderings applied
# is now re-checked in reject mode. Racy twin (the co store after the push): hunt9_war_chain_store_after_token.py.
# RUN: check --v2c reject
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
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
            co = pl.store(cz3, [0, 0], co)
            s1 = pl.store(acc0, [o * 16, 0], s1)
            for j in pl.range(0, 2):
                g4 = pl.load(s1, [0, 0], [16, 16])
                h5 = pl.add(g4, vin)
                out = pl.store(h5, [0, 0], out)
                w6 = pl.adds(vin, 1.0)
                s0 = pl.store(w6, [0, 0], s0)
        return out
