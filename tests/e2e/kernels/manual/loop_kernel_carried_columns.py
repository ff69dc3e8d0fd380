# Each iteration's launch writes columns n0 .. n0 + 63 (n0 = i * 64) of one tensor, through a loop the kernel carries
# the tensor in (16 columns per step): the kernel's own window analysis puts the iterations apart (no finding).
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(x: pl.Tensor[[16, 64], pl.FP16], n0: pl.Scalar[pl.INDEX], acc: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        for sub, (a,) in pl.range(4, init_values=(acc,)):
            xv: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
            off: pl.Scalar[pl.INDEX] = n0 + sub * 16
            a1: pl.Tensor[[16, 256], pl.FP16] = pl.tile.store(xv, [0, off], a)
            r = pl.yield_(a1)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 256], pl.FP16]]) -> pl.Tensor[[16, 256], pl.FP16]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for i, (acc,) in pl.range(4, init_values=(out,)):
                n0: pl.Scalar[pl.INDEX] = i * 64
                ret: pl.Tuple[pl.Tensor[[16, 256], pl.FP16], pl.Scalar[pl.TASK_ID]] = pl.submit(self.fill, x, n0, acc)
                acc2: pl.Tensor[[16, 256], pl.FP16] = ret[0]
                r = pl.yield_(acc2)
        return r
