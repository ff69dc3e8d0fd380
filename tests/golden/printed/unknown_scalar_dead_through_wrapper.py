# The dead case of unknown_scalar_dead_init.py through an Spmd wrapper (the parameter is passed on to the kernel it
# calls), a branch that yields it (an if-phi whose result is only carried on) and a nested loop whose carried value
# starts from it and is never read: still no value of it can change what the kernel does, so the kernel is checked
# (docs/DECISIONS.md, "Scalars that cannot matter"). Before: E-UNCHECKED.
# RUN: check --v2c fence --schedules 5
# CHECK: [producer]
# CHECK: PASS: no finding in any explored schedule
# CHECK: [consumer_spmd]
# CHECK: PASS: no finding in any explored schedule
import pypto.language as pl


@pl.program
class DeadThroughWrapper:
    @pl.function(type=pl.FunctionType.InCore)
    def producer(x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = b * 8
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        out_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [0, 0], out)
        return n, out_1

    @pl.function(type=pl.FunctionType.InCore)
    def consumer(x: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        for i, (c, o) in pl.range(2, init_values=(n, out)):
            r: pl.Scalar[pl.INDEX] = i * 8
            if i > 0:
                p: pl.Scalar[pl.INDEX] = pl.yield_(c)
            else:
                p: pl.Scalar[pl.INDEX] = pl.yield_(r)
            for j, (e,) in pl.range(2, init_values=(p,)):
                e_1: pl.Scalar[pl.INDEX] = j * 2
                e_2: pl.Scalar[pl.INDEX] = pl.yield_(e_1)
            xv: pl.Tile[[8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [8, 64])
            o_1: pl.Tensor[[16, 64], pl.FP16] = pl.tile.store(xv, [r, 0], o)
            c_1, o_2 = pl.yield_(p, o_1)
        return o_2

    @pl.function(type=pl.FunctionType.Spmd)
    def consumer_spmd(self, x: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        r: pl.Tensor[[16, 64], pl.FP16] = self.consumer(x, n, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], tmp: pl.Out[pl.Tensor[[16, 64], pl.FP16]], out: pl.Out[pl.Tensor[[16, 64], pl.FP16]]) -> pl.Tensor[[16, 64], pl.FP16]:
        ret: pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[16, 64], pl.FP16]] = self.producer(x, tmp)
        n: pl.Scalar[pl.INDEX] = ret[0]
        tmp_1: pl.Tensor[[16, 64], pl.FP16] = ret[1]
        out_1: pl.Tensor[[16, 64], pl.FP16] = self.consumer_spmd(tmp_1, n, out, attrs={"core_num": 1})
        return out_1
