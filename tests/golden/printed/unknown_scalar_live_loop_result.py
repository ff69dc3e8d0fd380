# The adversary of unknown_scalar_dead_init.py: the loop never reads the carried value the unknown scalar
# initialises, but the loop runs 0 times, so its result is that init value, and the kernel reads a window at it
# after the loop: the kernel stays E-UNCHECKED (docs/DECISIONS.md, "Scalars that cannot matter").
# RUN: check --v2c fence --schedules 5
# CHECK: [producer]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNCHECKED 22:51 the orchestration computes its scalar 'n'
import pypto.language as pl


@pl.program
class LiveLoopResult:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b * 8
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return n, out_1

    @pl.function(type=pl.FunctionType.InCore)
    def consumer(x: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        for i, (c,) in pl.range(0, init_values=(n,)):
            r: pl.Scalar[pl.INDEX] = i * 8
            c_1: pl.Scalar[pl.INDEX] = pl.yield_(r)
        xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [c_1, 0], [8, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], tmp: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ret: pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]] = self.producer(x, tmp)
        n: pl.Scalar[pl.INDEX] = ret[0]
        tmp_1: pl.Tensor[[16, 64], pl.FP16] = ret[1]
        out_1: pl.Tensor[[16, 64], pl.FP16] = self.consumer(tmp_1, n, out)
        return out_1
