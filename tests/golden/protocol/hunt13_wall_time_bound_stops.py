# A loop of 10^12 iterations cannot finish within the wall-time bound (--timeout 1 here, 60 s by default): the
# nominal schedule ends with E-TIMEOUT, and every further schedule would run to the same bound, so the exploration
# stops there (exit 1) instead of running all of --schedules to it (50 s here; 200 x 60 s by default; hunt13).
# RUN: check --timeout 1 --schedules 50 --jobs 0
# CHECK: 1 schedules
# CHECK: wall
# CHECK-NEXT: stopped: a schedule ran into the wall-time bound (--timeout), as every further one would
# CHECK: FAIL: 1 distinct finding(s)
# CHECK-NEXT: error[E-TIMEOUT]: the schedule exceeded the wall-time bound of 1 s
# CHECK: seen in 1 of 1 schedules; first: nominal seed 0
# EXIT: 1
import pypto.language as pl


@pl.program
class EndlessLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def endless(
        self,
        a: pl.Tensor[[16, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
    ) -> pl.Tensor[[16, 64], pl.FP16]:
        for i in pl.range(1000000000000):
            t = pl.load(a, [0, 0], [16, 64])
            out = pl.store(t, [0, 0], out)
        return out
