# A file with two Orchestration functions (as whole-model files hold a prefill and an lm-head entry, both launched
# by a host function) and no --entry: check takes each in turn as an entry of its own and labels every verdict
# with its entry ("[ENTRY: KERNEL]", "orchestration" in --json); the exit code is the worst of them (the race in
# the second entry's relay kernel: 1). Before: E-ENTRY "the program has several Orchestration functions"
# (docs/DECISIONS.md, "check takes every Orchestration function of a file").
# RUN: check --v2c off --schedules 10
# EXIT: 1
# CHECK: [first: scale]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [first: copy]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [second: relay]
# CHECK: E-RACE-RAW
# CHECK: [second: scale]
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class TwoEntries:
    @pl.function(type=pl.FunctionType.InCore)
    def relay(x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        d: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        scratch_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(d, [0, 0], scratch)
        s_mat: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch_1, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        s_left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
        w_mat: pl.Tile[[64, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        w_right: pl.Tile[[64, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, w_right)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(z, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 3.0)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.InCore)
    def copy(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def first(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        r: pl.Tensor[[16, 64], pl.FP16] = self.scale(x, out)
        r2: pl.Tensor[[16, 64], pl.FP16] = self.copy(r, out2)
        return r2

    @pl.function(type=pl.FunctionType.Orchestration)
    def second(self, x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], out2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP32]:
        scratch: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r: pl.Tensor[[16, 64], pl.FP32] = self.relay(x, w, scratch, out)
        r2: pl.Tensor[[16, 64], pl.FP16] = self.scale(x, out2)
        return r
