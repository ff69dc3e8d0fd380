# hunt8a: the cube reads rows ((n + 1) % 7) * 16 of the scratch the vector lane wrote rows 0-15 of: a race at n = 6
# (13, 20, ...) only. No --input gives n, so check samples it: 1, 2, 0, ascending, then 3 and the largest of
# 64 .. 4 it takes, none of which is 6 modulo 7: "PASS (the file)". The residues 0 .. c - 1 of each
# `x % c` over a computed x are now sampled too. Under fence the pair is ordered: hunt8a_sampled_residue_fence.py.
# RUN: check --v2c off
# CHECK: [k n=6 (sampled)]
# CHECK: error[E-RACE-RAW]
# EXIT: 1
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
