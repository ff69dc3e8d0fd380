# hunt9 (hunt8a vector_only_split_function_lanes): a vector-only InCore function with attrs split is the plain AIV
# function upstream makes of it: PyPTO's LowerAutoVectorSplit leaves a pure-vector split function un-split (no
# cube/vector boundary), and ExpandMixedKernel converts a one-sided InCore function to AIV and strips its split, as
# cvsim's expander does (`expand` prints it without the split). But with no mixed function in the program the
# expansion does not run, and the launch plan read the split attribute: both AIV lanes ran the whole unhalved body,
# an AIV0 / AIV1 write-after-write on every store (E-RACE-WAW under every policy). One AIV lane runs it now.
# Racy twin (per-lane form, attr split_aiv: both lanes run it whole): hunt9_vector_only_split_aiv_both_lanes.py.
# RUN: check --v2c off
# CHECK: PASS: no finding in any explored schedule
# EXIT: 0
import pypto.language as pl


@pl.program
class Gen:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.LEFT_RIGHT})
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], s0: pl.InOut[pl.Tensor[[96, 32], pl.FP32]], s1: pl.InOut[pl.Tensor[[96, 32], pl.FP32]], co: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vin = pl.load(a, [0, 0], [16, 16])
        if 1 == 1:
            for i0_3 in pl.range(0, 2):
                w22 = pl.adds(vin, 1.0)
                s0 = pl.store(w22, [(i0_3 // 2) * 16 + 0, 8], s0)
        return out
