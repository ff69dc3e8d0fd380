# Orchestration code from PyPTO's printer reads (expand prints it back); `run` executes one launch and does
# not execute host statements, so pl.submit is one E-UNSUPPORTED at `run`, never E-PARSE or E-TYPE.
# RUN: run
# ERROR: E-UNSUPPORTED 20 host op 'pl.submit'
import pypto.language as pl


@pl.program
class Submit:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
        out_1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            tid: pl.Scalar[pl.TASK_ID] = pl.const(0, pl.TASK_ID)
            tid_1: pl.Scalar[pl.TASK_ID] = pl.submit(self.k, x, out, deps=[tid])
        return out
