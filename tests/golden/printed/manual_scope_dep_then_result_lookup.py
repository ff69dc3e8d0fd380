# A manual-scope 'kw' reads t rows 16..31; an AUTO 'kr' after the scope names it in deps= and writes u, a tensor
# assembled into t at rows 8..23; the next 'kr' writes that launch's result again (rows 8..23 of t). PyPTO makes its
# Out argument InOut (an earlier launch wrote the same buffer), so the tensor map orders it after the first 'kr',
# which runs after 'kw': clean. (The launch result is the window of t the first 'kr' wrote: cvsim follows it to
# that window to know the map edge holds.)
# RUN: check --schedules 2
# CHECK-NOT: error[
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kw(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.adds(xv, 1.0)
        o1: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [row, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.InCore)
    def kr(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        o1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(y, [0, 0], out)
        return o1
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], o: pl.Out[pl.Tensor[[64, 64], pl.FP16]], io: pl.InOut[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.create([64, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            r0: pl.Scalar[pl.INDEX] = 16
            ret0: pl.Tuple[pl.Tensor[[64, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kw, t, r0, io)
            tid0: pl.Scalar[pl.TASK_ID] = ret0[1]
        u: pl.Tensor[[16, 64], pl.FP16] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.ND)
        r1: pl.Scalar[pl.INDEX] = 0
        ret1: pl.Tuple[pl.Tensor[[16, 64], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.kr, io, r1, u, deps=[tid0])
        u1: pl.Tensor[[16, 64], pl.FP16] = ret1[0]
        r2: pl.Scalar[pl.INDEX] = 16
        u2: pl.Tensor[[16, 64], pl.FP16] = self.kr(a, r2, u1)
        t1: pl.Tensor[[64, 64], pl.FP16] = pl.tensor.assemble(t, u, [8, 0])
        return o
