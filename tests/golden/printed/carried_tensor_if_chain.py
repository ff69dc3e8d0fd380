# Twenty-two ifs in a loop, each yielding the loop-carried tensor from both arms, then four cube stores: finding
# the carried tensor's base walked every path of the chain (2^22: over a minute; rev25). Each variable's base is
# now found once per frame. No V2C dependency: reject passes.
# RUN: check --v2c reject --schedules 20
# CHECK: PASS: no finding in any explored schedule
# pypto.program: HM22
import pypto.language as pl

@pl.program
class HM22:
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
        t__g217: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch__ssa_v0, [48, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        e__g218: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__g217)
        ov__g219: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(e__g218, [0, 0], outv__ssa_v0)
        for i, (v__iter,) in pl.range(2, init_values=(scratch__ssa_v0,)):
            if i == 0:
                ph0: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(v__iter)
            else:
                ph0: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(v__iter)
            if i == 1:
                ph1: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph0)
            else:
                ph1: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph0)
            if i == 0:
                ph2: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph1)
            else:
                ph2: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph1)
            if i == 1:
                ph3: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph2)
            else:
                ph3: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph2)
            if i == 0:
                ph4: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph3)
            else:
                ph4: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph3)
            if i == 1:
                ph5: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph4)
            else:
                ph5: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph4)
            if i == 0:
                ph6: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph5)
            else:
                ph6: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph5)
            if i == 1:
                ph7: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph6)
            else:
                ph7: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph6)
            if i == 0:
                ph8: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph7)
            else:
                ph8: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph7)
            if i == 1:
                ph9: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph8)
            else:
                ph9: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph8)
            if i == 0:
                ph10: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph9)
            else:
                ph10: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph9)
            if i == 1:
                ph11: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph10)
            else:
                ph11: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph10)
            if i == 0:
                ph12: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph11)
            else:
                ph12: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph11)
            if i == 1:
                ph13: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph12)
            else:
                ph13: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph12)
            if i == 0:
                ph14: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph13)
            else:
                ph14: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph13)
            if i == 1:
                ph15: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph14)
            else:
                ph15: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph14)
            if i == 0:
                ph16: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph15)
            else:
                ph16: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph15)
            if i == 1:
                ph17: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph16)
            else:
                ph17: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph16)
            if i == 0:
                ph18: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph17)
            else:
                ph18: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph17)
            if i == 1:
                ph19: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph18)
            else:
                ph19: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph18)
            if i == 0:
                ph20: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph19)
            else:
                ph20: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph19)
            if i == 1:
                ph21: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph20)
            else:
                ph21: pl.Tensor[[256, 64], pl.FP32] = pl.yield_(ph20)
            xm__g220: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g221: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g220, target_memory=pl.Mem.Left)
            acc__g222: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g221, wr__ssa_v0)
            c0: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g222, [0, 0], ph21)
            xm__g223: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g224: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g223, target_memory=pl.Mem.Left)
            acc__g225: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g224, wr__ssa_v0)
            c1: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g225, [16, 0], ph21)
            xm__g226: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g227: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g226, target_memory=pl.Mem.Left)
            acc__g228: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g227, wr__ssa_v0)
            c2: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g228, [32, 0], ph21)
            xm__g229: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
            xl__g230: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(xm__g229, target_memory=pl.Mem.Left)
            acc__g231: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xl__g230, wr__ssa_v0)
            c3: pl.Tensor[[256, 64], pl.FP32] = pl.tile.store(acc__g231, [0, 0], ph21)
            v__rv = pl.yield_(ph21)
        return outv__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w__ssa_v0: pl.Tensor[[64, 64], pl.FP16], w32__ssa_v0: pl.Tensor[[64, 64], pl.FP32], y__ssa_v0: pl.Tensor[[64, 64], pl.FP32], scratch__ssa_v0: pl.InOut[pl.Tensor[[256, 64], pl.FP32]], other__ssa_v0: pl.InOut[pl.Tensor[[256, 64], pl.FP32]], outc__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]], outv__ssa_v0: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = self.body(x__ssa_v0, w__ssa_v0, w32__ssa_v0, y__ssa_v0, scratch__ssa_v0, other__ssa_v0, outc__ssa_v0, outv__ssa_v0)
        return r__ssa_v1
