# In each iteration of a pl.parallel loop 'sw' reads w rows 0..15 and writes z rows 16 * i .., then 'sa' reads z rows
# 0..15 and rewrites w rows 0..15. At iteration 1 'sa' looks up z rows 0..15 and finds iteration 0's 'sw', not
# iteration 1's (which wrote z rows 16..31): nothing orders 'sa' after the 'sw' of its own iteration, which reads the
# rows of w it overwrites (E-RACE-WAR). Before: PASS (the map edge from 'sw' to 'sa' was taken from windows that may
# share bytes, true at iteration 0 only).
# RUN: check --schedules 2
# EXIT: 1
# ERROR: E-RACE-WAR 35 'sw' (line 33) reads it and 'sa' writes it
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def sw(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.InCore)
    def sa(x: pl.Tensor[[16, 64], pl.FP16], io: pl.InOut[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        iv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(io, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.add(xv, iv)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], io)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, w: pl.InOut[pl.Tensor[[64, 64], pl.FP16]], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        z: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        for i in pl.parallel(2):
            w0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(w, [16, 64], [0, 0])
            zi: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(z, [16, 64], [i * 16, 0])
            x1: pl.Tensor[[16, 64], pl.FP16] = self.sw(w0, zi)
            z0: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.slice(z, [16, 64], [0, 0])
            x2: pl.Tensor[[16, 64], pl.FP16] = self.sa(z0, w0)
        return o
