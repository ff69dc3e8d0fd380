# The kernel of hunt14_block_strided_loop_fence.py (PyPTO's printed IR, before ExpandMixedKernel, of a kernel written
# for cvsim) under --v2c syncall: the same-cluster V2C pair sits in a block-strided loop (`pl.range(b, 3, 2)`:
# block 0 two trips, block 1 one), so a fence + syncall(mix) there deadlocks the launch (E-DEADLOCK from cvsim's own
# barrier). Under syncall such a pair now takes the token fence (it is within one cluster); the blocks never share
# a byte: clean.
# RUN: check --v2c syncall --schedules 5 --jobs 1
# CHECK-NOT: E-DEADLOCK
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class Strided:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kern(
        x__ssa_v0: pl.Tensor[[16, 192], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], scratch__ssa_v0: pl.InOut[pl.Tensor[[16, 192], pl.FP16]], out__ssa_v0: pl.Out[pl.Tensor[[48, 64], pl.FP32]]
    ) -> pl.Tensor[[48, 64], pl.FP32]:
        b__ssa_v0: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        w_mat__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        w_right__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat__ssa_v0, target_memory=pl.Mem.Right)
        for i__idx_v0, (out__iter_v1, scratch__iter_v1) in pl.range(b__ssa_v0, 3, 2, init_values=(out__ssa_v0, scratch__ssa_v0)):
            xb__ssa_v0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, i__idx_v0 * 64], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
            sq__ssa_v0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.mul(xb__ssa_v0, xb__ssa_v0)
            scratch__ssa_v3: pl.Tensor[[16, 192], pl.FP16] = pl.tile.store(sq__ssa_v0, [0, i__idx_v0 * 64], scratch__iter_v1)
            s_mat__ssa_v0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch__ssa_v3, [0, i__idx_v0 * 64], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            s_left__ssa_v0: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat__ssa_v0, target_memory=pl.Mem.Left)
            z__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left__ssa_v0, w_right__ssa_v0)
            out__ssa_v3: pl.Tensor[[48, 64], pl.FP32] = pl.tile.store(z__ssa_v0, [i__idx_v0 * 16, 0], out__iter_v1)
            out__rv_v2, scratch__rv_v2 = pl.yield_(out__ssa_v3, scratch__ssa_v3)
        return out__rv_v2

    @pl.function(type=pl.FunctionType.Spmd)
    def main_spmd_0(
        self,
        x__ssa_v0: pl.Tensor[[16, 192], pl.FP16],
        w__ssa_v0: pl.Tensor[[64, 64], pl.FP16],
        scratch__ssa_v0: pl.InOut[pl.Tensor[[16, 192], pl.FP16]],
        out__ssa_v0: pl.Out[pl.Tensor[[48, 64], pl.FP32]],
    ) -> pl.Tensor[[48, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[48, 64], pl.FP32] = self.kern(x__ssa_v0, w__ssa_v0, scratch__ssa_v0, out__ssa_v0)
        return out__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(
        self,
        x__ssa_v0: pl.Tensor[[16, 192], pl.FP16],
        w__ssa_v0: pl.Tensor[[64, 64], pl.FP16],
        scratch__ssa_v0: pl.InOut[pl.Tensor[[16, 192], pl.FP16]],
        out__ssa_v0: pl.Out[pl.Tensor[[48, 64], pl.FP32]],
    ) -> pl.Tensor[[48, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[48, 64], pl.FP32] = self.main_spmd_0(x__ssa_v0, w__ssa_v0, scratch__ssa_v0, out__ssa_v0, attrs={"core_num": 2})
        return out__ssa_v1
