# A view the loop carries and moves by a slice each iteration (vn = slice(v_iter, [16, 0]); yield vn): the cube
# stores scratch rows 16 (i + 1) while the vector loads rows 48..64 every iteration; the third iteration's store
# overwrites them with nothing ordering the pair. The view's base moves each trip (a cycle through a slice): no
# constant base may be found for it (rev24's counterexample to e81b954, which found 16 and passed).
# RUN: check --v2c reject
# ERROR: E-V2C-UNFENCED 29 overwrites GM that the vector load
# EXIT: 1
# pypto.program: CarriedViewSlice
import pypto.language as pl

@pl.program
class CarriedViewSlice:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def body(x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP32]], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        wm__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr__ssa_v0: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(wm__ssa_v0, target_memory=pl.Mem.Right)
        wm32__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(w32__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        wr32__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Right] = pl.tile.move(wm32__ssa_v0, target_memory=pl.Mem.Right)
        step__ssa_v0: pl.Scalar[pl.INDEX] = 16
        v0__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = pl.tile.slice(scratch__ssa_v0, [64, 64], [0, 0])
        for i__idx_v0, (out__iter_v1, v__iter_v1) in pl.range(3, init_values=(out__ssa_v0, v0__ssa_v0)):
            t__g16: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch__ssa_v0, [48, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
            e__g17: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__g16)
            out__ssa_v3: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(e__g17, [i__idx_v0 * 16, 0], out__iter_v1)
            vn__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = pl.tile.slice(v__iter_v1, [64, 64], [step__ssa_v0, 0])
            xm__g18: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g19: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g18, target_memory=pl.Mem.Left)
            acc__g20: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g19, wr__ssa_v0)
            vs__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(acc__g20, [0, 0], vn__ssa_v0)
            out__rv_v2, v__rv_v2 = pl.yield_(out__ssa_v3, vn__ssa_v0)
        return out__rv_v2
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[128, 64], pl.FP32]], out__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = self.body(x__ssa_v0, w__ssa_v0, w32__ssa_v0, y__ssa_v0, scratch__ssa_v0, other__ssa_v0, out__ssa_v0)
        return out__ssa_v1
