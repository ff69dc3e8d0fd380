# pypto-lib's expert_routed shape (exp_h_q -> exp_w2_mm -> exp_w2_act), in a kernel of our own: 'quant' at tile t
# writes rows 16 * t of the manual_dep tensor sc_all and of the tracked h_all; at tile tt, 'mm' reads rows 16 * tt
# of h_all into a tensor of its iteration that 'act' reads, with rows 16 * tt of sc_all. The trip counts come from
# data. The tensor map orders mm(tt) after quant(t) exactly where their h_all rows meet, which is exactly where
# quant(t)'s and act(tt)'s sc_all rows meet (the same offsets): every instance pair that shares bytes is ordered.
# Clean. Before: E-RACE-RAW on sc_all (an edge of the tensor map counted only when it holds at every instance).
# RUN: check --schedules 2
# CHECK: PASS (the file)
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def quant(x: pl.Tensor[[16, 32], pl.FP32], sc: pl.Out[pl.Tensor[[16, 8], pl.FP32]], h: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        xv: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        h1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(y, [0, 0], h)
        sv: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 8], target_memory=pl.Mem.Vec)
        s1: pl.Tensor[[16, 8], pl.FP32] = pl.tile.store(sv, [0, 0], sc)
        return h1

    @pl.function(type=pl.FunctionType.InCore)
    def mm(y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], h: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        hv: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(h, [0, 0], [16, 32], target_memory=pl.Mem.Vec)
        z: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(hv, 1.0)
        y1: pl.Tensor[[16, 32], pl.FP32] = pl.tile.store(z, [0, 0], y)
        return y1

    @pl.function(type=pl.FunctionType.InCore)
    def act(sc: pl.Tensor[[16, 8], pl.FP32], y: pl.Tensor[[16, 32], pl.FP32], r0: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 8], pl.FP32]]) -> pl.Tensor[[64, 8], pl.FP32]:
        sv: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(sc, [0, 0], [16, 8], target_memory=pl.Mem.Vec)
        yv: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [16, 8], target_memory=pl.Mem.Vec)
        z: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.mul(sv, yv)
        o1: pl.Tensor[[64, 8], pl.FP32] = pl.tile.store(z, [r0, 0], out)
        return o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 32], pl.FP32], cnt: pl.Tensor[[1], pl.INT32], out: pl.Out[pl.Tensor[[64, 8], pl.FP32]]) -> pl.Tensor[[64, 8], pl.FP32]:
        h_all: pl.Tensor[[64, 32], pl.FP32] = pl.tensor.create([64, 32], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        sc_all: pl.Tensor[[64, 8], pl.FP32] = pl.tensor.create([64, 8], dtype=pl.FP32, layout=pl.TensorLayout.ND, manual_dep=True)
        c: pl.Scalar[pl.INT32] = pl.tensor.read(cnt, [0])
        nt: pl.Scalar[pl.INDEX] = pl.min((pl.cast(c, pl.INDEX) + 15) // 16, 4)
        for t in pl.parallel(nt):
            t0: pl.Scalar[pl.INDEX] = t * 16
            x_t: pl.Tensor[[16, 32], pl.FP32] = pl.tensor.slice(x, [16, 32], [t0, 0])
            h_t: pl.Tensor[[16, 32], pl.FP32] = pl.tensor.slice(h_all, [16, 32], [t0, 0])
            sc_t: pl.Tensor[[16, 8], pl.FP32] = pl.tensor.slice(sc_all, [16, 8], [t0, 0])
            h1: pl.Tensor[[16, 32], pl.FP32] = self.quant(x_t, sc_t, h_t)
        for tt in pl.parallel(nt):
            tt0: pl.Scalar[pl.INDEX] = tt * 16
            h_r: pl.Tensor[[16, 32], pl.FP32] = pl.tensor.slice(h_all, [16, 32], [tt0, 0])
            sc_r: pl.Tensor[[16, 8], pl.FP32] = pl.tensor.slice(sc_all, [16, 8], [tt0, 0])
            y: pl.Tensor[[16, 32], pl.FP32] = pl.tensor.create([16, 32], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            y1: pl.Tensor[[16, 32], pl.FP32] = self.mm(y, h_r)
            o1: pl.Tensor[[64, 8], pl.FP32] = self.act(sc_r, y1, tt0, out)
        return out
