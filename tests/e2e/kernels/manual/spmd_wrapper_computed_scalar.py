# A Spmd wrapper computes the kernel's row from its own parameter (row = base * 2) before launching it: the
# planner evaluates it from the constant its launcher passes (before: E-UNSUPPORTED "'row' is neither a
# parameter nor a tensor created with pl.create_tensor"). Each block stores its own 16 rows: PASS.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        r: pl.Scalar[pl.INDEX] = row + b * 16
        xv: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [r, 0], [16, 64], target_memory=pl.Mem.Vec)
        y: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.muls(xv, 2.0)
        o: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(y, [r, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Spmd)
    def scale_spmd(self, x: pl.Tensor[[64, 64], pl.FP16], base: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        row: pl.Scalar[pl.INDEX] = base * 2
        o: pl.Tensor[[64, 64], pl.FP16] = self.scale(x, row, out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]) -> pl.Tensor[[64, 64], pl.FP16]:
        o: pl.Tensor[[64, 64], pl.FP16] = self.scale_spmd(x, 0, out, attrs={"core_num": 4})
        return o
