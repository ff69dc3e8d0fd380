# PyPTO's printed IR (after ExpandMixedKernel) of tests/golden/pypto/src/two_stage.py, from dump_ir.py.
# RUN: expand --v2c off
# CHECK: type=pl.FunctionType.Group
# pypto.program: TwoStage
import pypto.language as pl

@pl.program
class TwoStage:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def main_incore_0_aic(a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 32], pl.FP32], mid__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
        main_incore_0_v2c_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='main_incore_0_v2c_slot_buffer', size=8192, base=-1)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), main_incore_0_v2c_slot_buffer, dir_mask=2, slot_size=4096, slot_num=2)
        s__tile_Left_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        s__tile_Left: pl.Tile[[32, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(s__tile_Left_mat, target_memory=pl.Mem.Left, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
        pl.system.tfree_to_aiv(s__tile_Left_mat)
        b__tile_Right_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        b__tile_Right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(b__tile_Right_mat, target_memory=pl.Mem.Right, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)
        pl.system.tfree_to_aiv(b__tile_Right_mat)
        p__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s__tile_Left, b__tile_Right)
        mid__tile: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(p__tile, [0, 0], mid__ssa_v0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def main_incore_0_aiv(a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 32], pl.FP32], mid__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        main_incore_0_v2c_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='main_incore_0_v2c_slot_buffer', peer_func='main_incore_0_aic')
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), main_incore_0_v2c_slot_buffer_import, dir_mask=2, slot_size=4096, slot_num=2)
        a__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(b__ssa_v0, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        s__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(a__tile, b__tile)
        pl.tile.tpush_to_aic(s__tile, split=0)
        pl.tile.tpush_to_aic(b__tile, split=0)
        return mid__ssa_v0
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def main_incore_0(a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 32], pl.FP32], mid__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        self.main_incore_0_aic(a__ssa_v0, b__ssa_v0, mid__ssa_v0)
        self.main_incore_0_aiv(a__ssa_v0, b__ssa_v0, mid__ssa_v0)
        return mid__ssa_v0
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def main_incore_1_aic(mid__ssa_v1: pl.Tensor[[32, 32], pl.FP32], a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], result__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
        main_incore_1_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='main_incore_1_c2v_slot_buffer', peer_func='main_incore_1_aiv')
        pl.system.aic_initialize_pipe(main_incore_1_c2v_slot_buffer_import, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)
        mid__ssa_v1_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(mid__ssa_v1, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        a__ssa_v0_mat: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
        mid__ssa_v1_mat_Left: pl.Tile[[32, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(mid__ssa_v1_mat, target_memory=pl.Mem.Left)
        a__ssa_v0_mat_Right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(a__ssa_v0_mat, target_memory=pl.Mem.Right)
        q__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(mid__ssa_v1_mat_Left, a__ssa_v0_mat_Right)
        pl.tile.tpush_to_aiv(q__tile, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def main_incore_1_aiv(mid__ssa_v1: pl.Tensor[[32, 32], pl.FP32], a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], result__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        main_incore_1_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='main_incore_1_c2v_slot_buffer', size=8192, base=-1)
        pl.system.aiv_initialize_pipe(main_incore_1_c2v_slot_buffer, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)
        q__tile_Vec: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        r__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.mul(q__tile_Vec, q__tile_Vec)
        pl.system.tfree_to_aic(q__tile_Vec)
        result__tile: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(r__tile, [0, 0], result__ssa_v0)
        return result__ssa_v0
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def main_incore_1(mid__ssa_v1: pl.Tensor[[32, 32], pl.FP32], a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], result__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        self.main_incore_1_aic(mid__ssa_v1, a__ssa_v0, result__ssa_v0)
        self.main_incore_1_aiv(mid__ssa_v1, a__ssa_v0, result__ssa_v0)
        return result__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[32, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 32], pl.FP32], mid__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]], result__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        mid__ssa_v1: pl.Tensor[[32, 32], pl.FP32] = self.main_incore_0(a__ssa_v0, b__ssa_v0, mid__ssa_v0)
        result__ssa_v1: pl.Tensor[[32, 32], pl.FP32] = self.main_incore_1(mid__ssa_v1, a__ssa_v0, result__ssa_v0)
        return result__ssa_v1
