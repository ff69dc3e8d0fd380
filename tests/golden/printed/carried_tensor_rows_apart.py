# PyPTO's printed IR (before ExpandMixedKernel) of a kernel written for cvsim (hunt8b k10): the cube stores rows
# 16 * i of a scratch tensor the loop carries (init_values / pl.yield_ of the store's result), the vector loads the
# same rows back. Rows of two iterations never meet: no write-after-read across iterations. The carried tensor's
# base (the store into it flows back through the yield) had none, so every window of it was unknown: reject raised
# E-V2C-UNFENCED and fence ordered the pair with flags for nothing. Racy twin: carried_tensor_rows_meet.py.
# RUN: check --v2c reject
# CHECK: PASS: no finding in any explored schedule
# pypto.program: C2VLoopRows
import pypto.language as pl

@pl.program
class C2VLoopRows:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def body(x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], scratch__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        wm__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(wm__ssa_v0, target_memory=pl.Mem.Right)
        for i__idx_v0, (out__iter_v1, scratch__iter_v1) in pl.range(4, init_values=(out__ssa_v0, scratch__ssa_v0)):
            xm__ssa_v0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [i__idx_v0 * 16, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__ssa_v0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__ssa_v0, target_memory=pl.Mem.Left)
            acc__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__ssa_v0, wr__ssa_v0)
            scratch__ssa_v3: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(acc__ssa_v0, [i__idx_v0 * 16, 0], scratch__iter_v1)
            t__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch__ssa_v3, [i__idx_v0 * 16, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
            t__tmp_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__ssa_v0)
            out__ssa_v3: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t__tmp_v0, [i__idx_v0 * 16, 0], out__iter_v1)
            out__rv_v2, scratch__rv_v2 = pl.yield_(out__ssa_v3, scratch__ssa_v3)
        return out__rv_v2
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], scratch__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = self.body(x__ssa_v0, w__ssa_v0, scratch__ssa_v0, out__ssa_v0)
        return out__ssa_v1
