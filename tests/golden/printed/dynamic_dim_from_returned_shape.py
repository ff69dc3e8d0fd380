# pypto-lib's printed form: a kernel declares `-> [T_DYN, 4]` and returns a parameter annotated [8, 4]; the
# orchestration creates that tensor as [8, 4]. T_DYN is 8 in this program: cvsim binds it from the program's own
# shapes (the default 128 gave "return value is [8, 4] but the signature declares [128, 4]").
# RUN: check --schedules 3 --jobs 1
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl

T_DYN = pl.dynamic("T_DYN")


@pl.program
class RetSym:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def post_incore(x__ssa_v0: pl.Tensor[[T_DYN, 4], pl.FP32], post__ssa_v0: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[T_DYN, 4], pl.FP32]:
        a__tile: pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [8, 4], [8, 4], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec] = pl.tile.exp(a__tile)
        post__tile: pl.Tensor[[8, 4], pl.FP32] = pl.tile.store(b__tile, [0, 0], post__ssa_v0)
        return post__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def post(self, x__ssa_v0: pl.Tensor[[T_DYN, 4], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[T_DYN, 4], pl.FP32]]) -> pl.Tensor[[T_DYN, 4], pl.FP32]:
        post__ssa_v0: pl.Tensor[[8, 4], pl.FP32] = pl.tensor.create([8, 4], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        post__ssa_v1: pl.Tensor[[T_DYN, 4], pl.FP32] = self.post_incore(x__ssa_v0, post__ssa_v0)
        y__ssa_v1: pl.Tensor[[T_DYN, 4], pl.FP32] = pl.tensor.assemble(y__ssa_v0, post__ssa_v1, [0, 0])
        return y__ssa_v1
