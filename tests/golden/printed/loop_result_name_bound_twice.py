# A name two loops bind as their result (r__rv): the first loop's result is a view of scratch at row 0, the
# second's at row 48 (found by review, rev25). The loop target's flows were replaced by the second loop's, so the
# first binding got the second's constant base (48): reject missed the WAR on rows 0..16 and fence left it.
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 36 overwrites GM that the vector load
# EXIT: 1
# pypto.program: R10
import pypto.language as pl

@pl.program
class R10:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def body(x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[512, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[512, 64], pl.FP32]], outc__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], outv__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        wm__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(wm__ssa_v0, target_memory=pl.Mem.Right)
        wm32__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(w32__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr32__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Right] = pl.tile.move(wm32__ssa_v0, target_memory=pl.Mem.Right)
        k0: pl.Scalar[pl.INDEX] = 0
        k8: pl.Scalar[pl.INDEX] = 8
        k16: pl.Scalar[pl.INDEX] = 16
        k32: pl.Scalar[pl.INDEX] = 32
        k48: pl.Scalar[pl.INDEX] = 48
        t__g1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        e__g2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__g1)
        ov__g3: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(e__g2, [0, 0], outv__ssa_v0)
        v0: pl.Tensor[[256, 64], pl.FP32] = pl.tile.slice(scratch__ssa_v0, [256, 64], [k0, 0])
        for i, (v__iter,) in pl.range(2, init_values=(v0,)):
            xm__g4: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g5: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g4, target_memory=pl.Mem.Left)
            acc__g6: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g5, wr__ssa_v0)
            v__new: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g6, [k16, 0], v__iter)
            r__rv = pl.yield_(v__new)
        xm__g7: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        xl__g8: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g7, target_memory=pl.Mem.Left)
        acc__g9: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g8, wr__ssa_v0)
        c__after: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g9, [0, 0], r__rv)
        w0: pl.Tensor[[256, 64], pl.FP32] = pl.tile.slice(scratch__ssa_v0, [256, 64], [k48, 0])
        for j, (u__iter,) in pl.range(2, init_values=(w0,)):
            xm__g10: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g11: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g10, target_memory=pl.Mem.Left)
            acc__g12: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g11, wr__ssa_v0)
            u__new: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g12, [k16, 0], u__iter)
            r__rv = pl.yield_(u__new)
        return outv__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[512, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[512, 64], pl.FP32]], outc__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], outv__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = self.body(x__ssa_v0, w__ssa_v0, w32__ssa_v0, y__ssa_v0, scratch__ssa_v0, other__ssa_v0, outc__ssa_v0, outv__ssa_v0)
        return r__ssa_v1
