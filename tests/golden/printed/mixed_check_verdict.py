# A mixed cube/vector kernel in the printed style (kernel without `self`, Orchestration method with `self`,
# `with pl.scope()`, pl.pipeline, scalar pl.min): cvsim expands it and `check` reaches a verdict.
# RUN: check
# CHECK: PASS: no finding in any explored schedule
# pypto.program: MixedPrinted
import pypto.language as pl


@pl.program
class MixedPrinted:
    @pl.function(type=pl.FunctionType.InCore)
    def scores(q: pl.Tensor[[16, 32], pl.FP16], k: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        q_mat: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(q, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        q_left: pl.Tile[[16, 32], pl.FP16, pl.Mem.Left] = pl.tile.move(q_mat, target_memory=pl.Mem.Left)
        for b in pl.pipeline(2, stage=2):
            col: pl.Scalar[pl.INDEX] = pl.min(b * 32, 32)
            k_mat: pl.Tile[[32, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(k, [0, col], [32, 32], target_memory=pl.Mem.Mat)
            k_right: pl.Tile[[32, 32], pl.FP16, pl.Mem.Right] = pl.tile.move(k_mat, target_memory=pl.Mem.Right)
            s: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(q_left, k_right)
            s_vec: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.move(s, target_memory=pl.Mem.Vec)
            p: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.exp(s_vec)
            out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(p, [0, col], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, q: pl.Tensor[[16, 32], pl.FP16], k: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.scope():
            r: pl.Tensor[[16, 64], pl.FP32] = self.scores(q, k, out)
        return r
