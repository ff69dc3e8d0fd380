# As flag_overflow_one_lane.py with lane 1 setting fifteen times in all: 15 pending at most, no overflow (the
# sets left pending at the end are no finding).
# RUN: check --schedules 5
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class FlagOneLane:
    @pl.function(type=pl.FunctionType.AIC, attrs={"split_aiv": True})
    def k_aic(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type="aic")

    @pl.function(type=pl.FunctionType.AIV, attrs={"split_aiv": True})
    def k_aiv(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        sb = pl.tile.get_subblock_idx()
        t = pl.load(x, [sb * 8, 0], [8, 16])
        out = pl.store(t, [sb * 8, 0], out)
        if sb == 1:
            for i in pl.range(14):
                pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type="aiv")
        return out

    @pl.function(type=pl.FunctionType.Group, attrs={"split_aiv": True})
    def k(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        self.k_aic(x, out)
        result = self.k_aiv(x, out)
        return result
