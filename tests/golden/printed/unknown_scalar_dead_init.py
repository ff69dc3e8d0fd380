# A kernel whose scalar parameter the orchestration takes from a value the host walk cannot know (a scalar another
# kernel returns, one per block) but which only initialises a loop-carried value that the loop never reads (the body
# computes its own from the loop index, through plain arithmetic and another carried value) and whose loop result is
# unused: no value of it can change what the kernel does, so it is checked (with 0; a note says the value does not
# matter) instead of E-UNCHECKED (docs/DECISIONS.md, "Scalars that cannot matter").
# RUN: check --v2c fence --schedules 5
# CHECK: [producer]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [consumer]
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class DeadInit:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b * 8
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return n, out_1

    @pl.function(type=pl.FunctionType.InCore)
    def consumer(x: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        m: pl.Scalar[pl.INDEX] = n * 2 + 1
        for i, (c, o) in pl.range(2, init_values=(m, out)):
            r: pl.Scalar[pl.INDEX] = i * 8
            d: pl.Scalar[pl.INDEX] = c + r
            xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [8, 64])
            o_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [r, 0], o)
            c_1, o_2 = pl.yield_(d, o_1)
        return o_2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], tmp: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ret: pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]] = self.producer(x, tmp)
        n: pl.Scalar[pl.INDEX] = ret[0]
        tmp_1: pl.Tensor[[16, 64], pl.FP16] = ret[1]
        out_1: pl.Tensor[[16, 64], pl.FP16] = self.consumer(tmp_1, n, out)
        return out_1
