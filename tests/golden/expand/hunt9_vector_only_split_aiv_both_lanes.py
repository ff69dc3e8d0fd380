# hunt9: the racy twin of hunt9_vector_only_split_one_lane.py: attr split_aiv (per-lane form) says both AIV lanes run
# the function, each at its lane index; this one stores the same whole tile from both (an AIV0 / AIV1 WAW).
# RUN: check --v2c off
# CHECK: error[E-RACE-WAW]
# EXIT: 1
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 32], pl.FP32]], s1: pl.InOut[pl.Tensor[[96, 32], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        if 1 == 1:
            for i0_3 in pl.range(0, 2):
                w22 = pl.adds(vin, 1.0)
                s0 = pl.store(w22, [(i0_3 // 2) * 16 + 0, 8], s0)
        return out
