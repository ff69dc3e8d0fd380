# PyPTO's print of a kernel written for the hunt (hunt8b, /work/hunt8b/k/k16_prog_branch_pred.py PredSkip): an
# expert launch with predicate=(cnt[0, 0] > 0), printed as `0 < pl.cast(pl.tensor.read(cnt, [0, 0]), pl.INDEX)`.
# pl.cast of an element read is a scalar cast; cvsim took it for the tile op (E-TYPE, exit 2, on a valid program).
# RUN: check --schedules 3
# EXIT: 0
# CHECK: PASS (the file): all 3 kernel verdict(s) clean
# CHECK-NOT: error[
# pypto.program: PredSkip
import pypto.language as pl

@pl.program
class PredSkip:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def expert(x__ssa_v0: pl.Tensor[[64, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Vec)
        t__tmp_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__ssa_v0)
        out__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fin(out__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(out__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Vec)
        t__tmp_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t__ssa_v0, t__ssa_v0)
        y__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], y__ssa_v0)
        return y__ssa_v1
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def gate(x__ssa_v0: pl.Tensor[[64, 64], pl.FP32], cnt__ssa_v0: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        t__ssa_v0: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        c__ssa_v0: pl.Tile[[1, 8], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t__ssa_v0, target_type=pl.INT32, mode='round')
        cnt__ssa_v1: pl.Tensor[[1, 8], pl.INT32] = pl.tile.store(c__ssa_v0, [0, 0], cnt__ssa_v0)
        return cnt__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 64], pl.FP32], cnt__ssa_v0: pl.Out[pl.Tensor[[1, 8], pl.INT32]], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], y__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            _submit_tmp__ssa_v0: pl.Tuple[pl.Tensor[[1, 8], pl.INT32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.gate, x__ssa_v0, cnt__ssa_v0)
            cnt__ssa_v1: pl.Tensor[[1, 8], pl.INT32] = _submit_tmp__ssa_v0[0]
            g__ssa_v0: pl.Scalar[pl.TASK_ID] = _submit_tmp__ssa_v0[1]
            _submit_tmp__ssa_v0_1: pl.Tuple[pl.Tensor[[64, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.expert, x__ssa_v0, out__ssa_v0, deps=[g__ssa_v0], predicate=(0 < pl.cast(pl.tensor.read(cnt__ssa_v1, [0, 0]), pl.INDEX)))
            out__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = _submit_tmp__ssa_v0_1[0]
            e__ssa_v0: pl.Scalar[pl.TASK_ID] = _submit_tmp__ssa_v0_1[1]
            _submit_tmp__ssa_v0_2: pl.Tuple[pl.Tensor[[64, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.fin, out__ssa_v1, y__ssa_v0, deps=[e__ssa_v0])
            y__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = _submit_tmp__ssa_v0_2[0]
            ___ssa_v0: pl.Scalar[pl.TASK_ID] = _submit_tmp__ssa_v0_2[1]
        return y__ssa_v1
