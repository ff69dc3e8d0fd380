# `check --entry rows` on an InCore kernel that an Spmd wrapper calls, the wrapper launched with
# attrs={"core_num": 2}: the kernel runs on 2 blocks, so --entry checks it on 2 (with a note naming the launch).
# Both blocks write rows 0..16 of `out` (no get_block_idx): a WAW race between clusters, PASS on 1 block.
# RUN: check --entry rows --schedules 3
# EXIT: 1
# CHECK: error[E-RACE-WAW]
import pypto.language as pl


@pl.program
class WrapperEntryWidth:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(self, a: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        s = pl.muls(t, 2.0)
        out = pl.store(s, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def rows_spmd(self, a: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        o = self.rows(a, out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        o = self.rows_spmd(a, out, attrs={"core_num": 2})
        return o
