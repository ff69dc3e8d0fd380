# PyPTO's printed IR (after ExpandMixedKernel) of tests/golden/pypto/src/c2v_blocks.py, from dump_ir.py.
# RUN: expand --v2c off
# CHECK: type=pl.FunctionType.Group
# pypto.program: C2VBlocks
import pypto.language as pl

@pl.program
class C2VBlocks:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def main_incore_0_aic(c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32]], b__ssa_v0: pl.Tensor[[32, 128], pl.FP32], a__ssa_v0: pl.Tensor[[16, 32], pl.FP32]):
        main_incore_0_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='main_incore_0_c2v_slot_buffer', peer_func='main_incore_0_aiv')
        pl.system.aic_initialize_pipe(main_incore_0_c2v_slot_buffer_import, pl.const(0, pl.INT32), dir_mask=1, slot_size=2048, slot_num=2)
        for j__idx_v0 in pl.range(4):
            bj__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(b__ssa_v0, [0, j__idx_v0 * 32], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
            a__ssa_v0_mat: pl.Tile[[16, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat)
            a__ssa_v0_mat_Left: pl.Tile[[16, 32], pl.FP32, pl.Mem.Left] = pl.tile.move(a__ssa_v0_mat, target_memory=pl.Mem.Left)
            bj__tile_Right: pl.Tile[[32, 32], pl.FP32, pl.Mem.Right] = pl.tile.move(bj__tile, target_memory=pl.Mem.Right)
            m__tile: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a__ssa_v0_mat_Left, bj__tile_Right)
            pl.tile.tpush_to_aiv(m__tile, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def main_incore_0_aiv(c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32]], b__ssa_v0: pl.Tensor[[32, 128], pl.FP32], a__ssa_v0: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        main_incore_0_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='main_incore_0_c2v_slot_buffer', size=4096, base=-1)
        pl.system.aiv_initialize_pipe(main_incore_0_c2v_slot_buffer, pl.const(0, pl.INT32), dir_mask=1, slot_size=2048, slot_num=2)
        for j__idx_v0, (c__iter_v1,) in pl.range(4, init_values=(c__ssa_v0,)):
            m__tile_Vec: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
            e__tile: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.exp(m__tile_Vec)
            pl.system.tfree_to_aic(m__tile_Vec)
            c__tile: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(e__tile, [0, j__idx_v0 * 32], c__iter_v1)
            c__rv_v2: pl.Tensor[[16, 128], pl.FP32] = pl.yield_(c__tile)
        return c__ssa_v0
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def main_incore_0(c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32]], b__ssa_v0: pl.Tensor[[32, 128], pl.FP32], a__ssa_v0: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        self.main_incore_0_aic(c__ssa_v0, b__ssa_v0, a__ssa_v0)
        self.main_incore_0_aiv(c__ssa_v0, b__ssa_v0, a__ssa_v0)
        return c__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[16, 32], pl.FP32], b__ssa_v0: pl.Tensor[[32, 128], pl.FP32], c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        c__rv_v2: pl.Tensor[[16, 128], pl.FP32] = self.main_incore_0(c__ssa_v0, b__ssa_v0, a__ssa_v0)
        return c__rv_v2
