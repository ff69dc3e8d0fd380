# The program's own shapes bind a pl.dynamic symbol only where they agree: here a kernel returns an [8, 4]
# tensor as `[T_DYN, 4]` (T_DYN = 8) and another call passes a [16, 4] tensor where `[T_DYN, 4]` is declared.
# That call gets its own copy of the kernel with T_DYN = 16 (per-call specialisation), whose return of the
# [8, 4] `post__ssa_v0` as `[T_DYN, 4]` = [16, 4] is E-TYPE at the return, never a silent pick.
# RUN: check --schedules 3 --jobs 1
# ERROR: E-TYPE 19:16 return value is pl.Tensor[[8, 4], pl.FP32] but the signature declares pl.Tensor[[16, 4], pl.FP32]
import pypto.language as pl

T_DYN = pl.dynamic("T_DYN")


@pl.program
class Conflict:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def post_incore(x__ssa_v0: pl.Tensor[[T_DYN, 4], pl.FP32], post__ssa_v0: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[T_DYN, 4], pl.FP32]:
        a__tile: pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [8, 4], [8, 4], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec] = pl.tile.exp(a__tile)
        post__tile: pl.Tensor[[8, 4], pl.FP32] = pl.tile.store(b__tile, [0, 0], post__ssa_v0)
        return post__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def post(self, y__ssa_v0: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        post__ssa_v0: pl.Tensor[[8, 4], pl.FP32] = pl.tensor.create([8, 4], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        big__ssa_v0: pl.Tensor[[16, 4], pl.FP32] = pl.tensor.create([16, 4], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        a__ssa_v1: pl.Tensor[[T_DYN, 4], pl.FP32] = self.post_incore(post__ssa_v0, post__ssa_v0)
        b__ssa_v1: pl.Tensor[[T_DYN, 4], pl.FP32] = self.post_incore(big__ssa_v0, y__ssa_v0)
        return y__ssa_v0
