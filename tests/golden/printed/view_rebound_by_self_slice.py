# A view re-bound by a slice of itself in a loop (v = slice(v, [16, 0])): it moves 16 rows every trip (32, 48,
# 64), and the vector reads rows 48 before the loop. The self-slice was taken "relative to itself" (the offset
# alone, a constant 16), so reject passed and fence left the WAR (found by review, rev25).
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 32 overwrites GM that the vector load
# EXIT: 1
# pypto.program: R03
import pypto.language as pl

@pl.program
class R03:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def body(x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[256, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[256, 64], pl.FP32]], outc__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], outv__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        wm__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(wm__ssa_v0, target_memory=pl.Mem.Right)
        wm32__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(w32__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr32__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Right] = pl.tile.move(wm32__ssa_v0, target_memory=pl.Mem.Right)
        k0: pl.Scalar[pl.INDEX] = 0
        k8: pl.Scalar[pl.INDEX] = 8
        k16: pl.Scalar[pl.INDEX] = 16
        k32: pl.Scalar[pl.INDEX] = 32
        k48: pl.Scalar[pl.INDEX] = 48
        t__g1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch__ssa_v0, [48, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        e__g2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__g1)
        ov__g3: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(e__g2, [0, 0], outv__ssa_v0)
        v__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = pl.tile.slice(scratch__ssa_v0, [64, 64], [k16, 0])
        for i, (s__iter,) in pl.range(3, init_values=(scratch__ssa_v0,)):
            v__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = pl.tile.slice(v__ssa_v0, [64, 64], [k16, 0])
            xm__g4: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g5: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g4, target_memory=pl.Mem.Left)
            acc__g6: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g5, wr__ssa_v0)
            c__new: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(acc__g6, [0, 0], v__ssa_v0)
            s__rv = pl.yield_(s__iter)
        return outv__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[256, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[256, 64], pl.FP32]], outc__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], outv__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = self.body(x__ssa_v0, w__ssa_v0, w32__ssa_v0, y__ssa_v0, scratch__ssa_v0, other__ssa_v0, outc__ssa_v0, outv__ssa_v0)
        return r__ssa_v1
