# The adversary of unknown_scalar_dead_through_wrapper.py: the unknown scalar initialises an outer loop's carried
# value, which initialises an inner loop's carried value, which the inner loop yields out; the outer loop yields
# that into another carried value, which the next iteration reads as a load offset. Only the fixed point over the
# yield chain sees it: the kernel stays E-UNCHECKED (docs/DECISIONS.md, "Scalars that cannot matter").
# RUN: check --v2c fence --schedules 5
# CHECK: [producer]
# CHECK: PASS: no finding in any explored schedule
# ERROR: E-UNCHECKED 23:51 the orchestration computes its scalar 'n'
import pypto.language as pl


@pl.program
class LiveNestedYield:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b * 8
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return n, out_1

    @pl.function(type=pl.FunctionType.InCore)
    def consumer(x: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        for i, (c, k, o) in pl.range(2, init_values=(n, 0, out)):
            xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [k, 0], [8, 64])
            r: pl.Scalar[pl.INDEX] = i * 8
            o_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [r, 0], o)
            for j, (d,) in pl.range(1, init_values=(c,)):
                d_1: pl.Scalar[pl.INDEX] = pl.yield_(d)
            c_1, k_1, o_2 = pl.yield_(c, d_1, o_1)
        return o_2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], tmp: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ret: pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]] = self.producer(x, tmp)
        n: pl.Scalar[pl.INDEX] = ret[0]
        tmp_1: pl.Tensor[[16, 64], pl.FP16] = ret[1]
        out_1: pl.Tensor[[16, 64], pl.FP16] = self.consumer(tmp_1, n, out)
        return out_1
