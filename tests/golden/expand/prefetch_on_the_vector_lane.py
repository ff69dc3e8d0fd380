# pl.prefetch.* in a mixed kernel (pypto-lib's decode layers warm their weights this way): PyPTO gives the ops
# VECTOR affinity, so the expansion puts them on the AIV function only, never on the cube. The prefetch changes
# no value: the check is clean and the run equals the reference.
# RUN: expand --v2c off
# CHECK: def f_aic(
# CHECK-NOT: pl.prefetch
# CHECK: def f_aiv(
# CHECK: ctx: pl.PrefetchAsyncContext = pl.prefetch.make_context()
# CHECK: ev: pl.AsyncEvent = pl.prefetch.async_prefetch(w, ctx)
# CHECK: se: pl.AsyncSession = pl.prefetch.session(ctx)
# CHECK: done: pl.Scalar[pl.BOOL] = pl.prefetch.wait(ev, se)
import pypto.language as pl


@pl.program
class Warm:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], w: pl.Tensor[[1, 4096], pl.BF16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ctx: pl.PrefetchAsyncContext = pl.prefetch.make_context()
        ev: pl.AsyncEvent = pl.prefetch.async_prefetch(w, ctx)
        am = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        al = pl.move(am, target_memory=pl.Mem.Left)
        bm = pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        br = pl.move(bm, target_memory=pl.Mem.Right)
        z = pl.matmul(al, br)
        v = pl.move(z, target_memory=pl.Mem.Vec)
        se: pl.AsyncSession = pl.prefetch.session(ctx)
        done: pl.Scalar[pl.BOOL] = pl.prefetch.wait(ev, se)
        u = pl.mul(v, 2.0)
        out = pl.store(u, [0, 0], out)
        return out
