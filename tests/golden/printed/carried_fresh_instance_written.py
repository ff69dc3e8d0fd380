# As carried_fresh_instance_apart.py, but 'emit' writes 'h', the tensor the loop carries in, which 'norm' reads
# in the same iteration with nothing ordering the two (at the first iteration 'h0', later an earlier
# iteration's 'nxt'): a WAR, whichever way the carried value is reached.
# RUN: check --schedules 2
# ERROR: E-RACE-WAR 34 WAR on GM tensor 'h0'
# EXIT: 1
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
            n1: pl.Tensor[[16, 64], pl.FP16] = self.emit(x, h)
            h2: pl.Tensor[[16, 64], pl.FP16] = pl.yield_(n1)
        return out
