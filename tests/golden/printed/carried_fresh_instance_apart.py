# A layer loop (the shape of pypto-lib's qwen3 prefill layer loop, written for cvsim): each iteration creates
# 'nxt', 'emit' writes it and the loop yields it, so the next iteration's 'h' is this one's 'nxt'. 'norm' reads
# 'h' (an earlier iteration's tensor, or 'h0' at the first) while 'emit' writes this iteration's 'nxt', with
# nothing ordering them in the iteration: two different tensors, no WAR (cvsim took them for one). Across
# iterations the next 'norm' reads what this 'emit' wrote (RAW, looked up). Clean.
# RUN: check --schedules 2
# CHECK: [emit]
# CHECK: [norm]
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def norm(h: pl.Tensor[[16, 64], pl.FP16], t: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        hv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(h, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(hv, 2.0)
        t1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], t)
        return t1

    @pl.function(type=pl.FunctionType.InCore)
    def emit(x: pl.Tensor[[16, 64], pl.FP16], n: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        n1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], n)
        return n1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        h0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        h1: pl.Tensor[[16, 64], pl.FP16] = self.emit(x, h0)
        for i, (h,) in pl.range(4, init_values=(h1,)):
            nxt: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
            t: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
            t1: pl.Tensor[[16, 64], pl.FP16] = self.norm(h, t)
            n1: pl.Tensor[[16, 64], pl.FP16] = self.emit(x, nxt)
            h2: pl.Tensor[[16, 64], pl.FP16] = pl.yield_(n1)
        return out
