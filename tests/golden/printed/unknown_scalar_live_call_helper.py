# The adversary of unknown_scalar_dead_through_wrapper.py: the kernel passes the unknown scalar on to a helper
# function it calls, and the helper reads a window at it: the kernel stays E-UNCHECKED (docs/DECISIONS.md, "Scalars
# that cannot matter").
# RUN: check --v2c fence --schedules 5
# CHECK: [producer]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNCHECKED 27:51 the orchestration computes its scalar 'n'
import pypto.language as pl


@pl.program
class LiveCallHelper:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b * 8
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return n, out_1

    @pl.function(type=pl.FunctionType.InCore)
    def rows(x: pl.Tensor[[16, 64], pl.FP16], at: pl.Scalar[pl.INDEX]) -> pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec]:
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [at, 0], [8, 64])
        return xv

    @pl.function(type=pl.FunctionType.InCore)
    def consumer(x: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        k: pl.Scalar[pl.INDEX] = n + 0
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = self.rows(x, k)
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], tmp: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ret: pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]] = self.producer(x, tmp)
        n: pl.Scalar[pl.INDEX] = ret[0]
        tmp_1: pl.Tensor[[16, 64], pl.FP16] = ret[1]
        out_1: pl.Tensor[[16, 64], pl.FP16] = self.consumer(tmp_1, n, out)
        return out_1
