# two_results.py's shape in pypto-lib's printed form: the kernel returns the results of a branch (each arm yields
# its two Out parameters), an Spmd wrapper returns `ret[0], ret[1]` of the kernel's launch, and the orchestration
# takes `ret[0]` / `ret[1]` of the wrapper's. p1 is b1 and p2 is b2, so k2's two tensor parameters share no bytes:
# checked, not refused (the parameter a kernel returns was not followed through branches and indexed results, so
# both elements were taken to be either tensor).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(a: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], o1: pl.Out[pl.Tensor[[16, 64], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]]:
        if n > 0:
            t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])
            u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
            o1_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(u, [0, 0], o1)
            v: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
            o2_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(v, [0, 0], o2)
            r1, r2 = pl.yield_(o1_1, o2_1)
        else:
            r1, r2 = pl.yield_(o1, o2)
        return r1, r2

    @pl.function(type=pl.FunctionType.Spmd)
    def k1_spmd(self, a: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], o1: pl.Out[pl.Tensor[[16, 64], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]]:
        ret: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]] = self.k1(a, n, o1, o2)
        q1: pl.Tensor[[16, 64], pl.FP32] = ret[0]
        q2: pl.Tensor[[16, 64], pl.FP32] = ret[1]
        return q1, q2

    @pl.function(type=pl.FunctionType.InCore)
    def k2(x: pl.Tensor[[16, 64], pl.FP32], y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [16, 64])
        v: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, u)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(v, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        b1: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.create([16, 64], dtype=pl.FP32)
        b2: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.create([16, 64], dtype=pl.FP32)
        ret: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]] = self.k1_spmd(a, 1, b1, b2)
        p1: pl.Tensor[[16, 64], pl.FP32] = ret[0]
        p2: pl.Tensor[[16, 64], pl.FP32] = ret[1]
        r: pl.Tensor[[16, 64], pl.FP32] = self.k2(p1, p2, out)
        return r
